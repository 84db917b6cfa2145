"""Plain Python functions exercising the statements AutoGraph rewrites; converted, each must
return what it returns unconverted (tests/autograph/test_transformer.py)."""
import contextlib

FUNCTIONS: list = []


def check(*inputs):
    def register(fn):
        FUNCTIONS.extend((fn, i) for i in inputs)
        return fn
    return register


@check(0, 3, 7, 12)
def nested_loops_with_jumps(n):
    found = []
    for i in range(n):
        if i % 2:
            continue
        for j in range(i):
            if j > 2:
                break
            found.append((i, j))
        else:
            found.append(i)
        if len(found) > 8:
            break
    else:
        found.append("complete")
    return found


@check(1, 10, 100)
def while_else_with_return(n):
    i = 0
    while i < n:
        if i * i > 30:
            return i
        i += 1
    else:
        i = -i
    return i


@check(0, 4)
def return_inside_try_finally(n):
    log = []
    for k in range(n):
        try:
            if k == 2:
                return log
            log.append(k)
        finally:
            log.append("finally")
    return log


@check(3, 5)
def walrus_chained_comparisons_and_comprehensions(n):
    total = 0
    while (step := n - total) > 0:
        total += 1 if 0 < step < 3 else 2
    squares = [k * k for k in range(n) if k % 2 == 0 or k == n - 1]
    if (last := squares[-1]) and last > 3:
        total += last
    return total, squares, not squares, squares and squares[-1]


@check(2, 6)
def star_arguments_and_defaults(n):
    def combine(first, *rest, scale=1, **named):
        return (first + sum(rest)) * scale + sum(named.values())
    values = list(range(n))
    return combine(*values, scale=2, **{"extra": n}) if values else None


@check(1, 4)
def with_statements_and_subscripts(n):
    counts = {"even": 0, "odd": 0}
    with contextlib.suppress(ZeroDivisionError):
        for k in range(n):
            counts["even" if k % 2 == 0 else "odd"] += 1
            if k == 2:
                1 / 0
    return counts


@check(3)
def closures_over_loop_variables(n):
    makers = []
    for k in range(n):
        def make(k=k):
            return k * 10
        makers.append(make)
    return [m() for m in makers]


@check(0, 5)
def early_returns_everywhere(n):
    if n == 0:
        return "zero"
    for k in range(n):
        while k > 2:
            if k == 4:
                return "four"
            k -= 1
    return "end"


@check(2, 5)
def break_in_an_inner_loops_else(n):
    seen = []
    for i in range(n):
        for j in range(i):
            if j == 3:
                break
            seen.append(j)
        else:
            seen.append(-i)
            if i >= 2:
                break
    return seen
