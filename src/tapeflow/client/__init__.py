"""Running graphs: Session."""
