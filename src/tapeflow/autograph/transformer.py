"""The AST side of AutoGraph: rewrites a function's source so its control flow calls the
operators of operators.py, which decide at run time between Python and graph control flow.

Per function (and per function defined inside it), in this order:

1. `return` inside an `if`/loop becomes `do_return = True; retval_ = value`, and the
   statements after it run under `if not do_return:` (or move into the other branch of an
   `if` whose branch always returns); the function ends with `return ag__.retval(retval_)`.
2. `break` and `continue` become flags the same way; a loop with `break` also tests the
   flag (a `for` through `extra_test`), and its `else:` runs under `if not break_`.
3. `if`, `while` and `for` become `ag__.if_stmt`, `ag__.while_stmt` and `ag__.for_stmt`
   calls over functions defined in place: the bodies, `get_state` and `set_state` over the
   variables the statement assigns (its symbols, reached with `nonlocal`). `and`, `or`,
   `not`, `x if c else y` and calls (`ag__.converted_call`, which converts user functions
   and gives `range` and `len` their tensor forms) become operator calls too.
4. Every symbol starts as `ag__.Undefined(name)` and is read through `ag__.ld`, which raises
   the right error for a variable that has no value.
"""
from __future__ import annotations

import ast
import itertools

RETURN_FLAG = "do_return"
RETURN_VALUE = "retval_"
OPERATORS = "ag__"
CONVERTED_PREFIX = "tf__"

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_LOOPS = (ast.For, ast.While)
_SCOPES = _FUNCTIONS + (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def convert_function(node: ast.FunctionDef) -> ast.FunctionDef:
    """The converted form of one function definition (its decorators removed), named
    `tf__<name>` as AutoGraph names converted functions."""
    node.decorator_list = []
    converted = _Scope(itertools.count(1)).convert(node)
    converted.name = CONVERTED_PREFIX + converted.name
    return converted


def _name(id_: str, ctx=None) -> ast.Name:
    return ast.Name(id=id_, ctx=ctx or ast.Load())


def _operator(name: str) -> ast.Attribute:
    return ast.Attribute(value=_name(OPERATORS), attr=name, ctx=ast.Load())


def _call(func, *args) -> ast.Call:
    return ast.Call(func=func, args=list(args), keywords=[])


def _assign(target: str, value) -> ast.Assign:
    return ast.Assign(targets=[_name(target, ast.Store())], value=value)


def _raw(node: ast.Name) -> ast.Name:
    """A read that must see an undefined value as it is (not through ag__.ld)."""
    node.ag_raw = True
    return node


def _walk_scope(roots: list):
    """The nodes under `roots` in their function scope: a nested function, class or
    comprehension is yielded but not entered."""
    stack = list(roots)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _SCOPES):
                yield child
            else:
                stack.append(child)


def _assigned(statements: list) -> list:
    """The names the statements assign in their scope, in order of first assignment (not an
    `except ... as e` name: Python deletes it when the handler ends)."""
    names: dict = {}
    for node in _walk_scope(statements):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names[node.id] = None
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = None
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names[(alias.asname or alias.name).split(".")[0]] = None
    return list(names)


def _composites(statements: list) -> list:
    """The attributes and constant-key items of names the statements assign (`a.total =`,
    `d["key"] +=`), as source text: they are statement symbols like names."""
    found: dict = {}
    for node in _walk_scope(statements):
        if isinstance(node, (ast.Attribute, ast.Subscript)) and \
                isinstance(node.ctx, ast.Store) and _is_composite(node):
            found[ast.unparse(node)] = None
    return list(found)


def _is_composite(node) -> bool:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Constant):
            return False
        node = node.value
    return isinstance(node, ast.Name)


def _expression(text: str, ctx):
    """A fresh AST of a composite symbol's expression, read (ast.Load) or assigned."""
    node = ast.parse(text, mode="eval").body
    node.ctx = ctx
    return node


def _contains(statement, kinds, into_loops: bool) -> bool:
    """Whether `statement` holds a statement of `kinds` reached from it (not inside nested
    functions; not inside nested loops unless `into_loops`: a loop's `break` is its own,
    but one in its `else:` belongs to the enclosing loop)."""
    if isinstance(statement, _FUNCTIONS):
        return False
    stack = list(statement.orelse) if isinstance(statement, _LOOPS) and not into_loops \
        else [statement]
    while stack:
        node = stack.pop()
        if isinstance(node, kinds):
            return True
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _FUNCTIONS) or (not into_loops and isinstance(child, _LOOPS)):
                continue
            stack.append(child)
    return False


def _always_jumps(block: list, kinds) -> bool:
    if not block:
        return False
    last = block[-1]
    if isinstance(last, kinds):
        return True
    return isinstance(last, ast.If) and _always_jumps(last.body, kinds) and \
        _always_jumps(last.orelse, kinds)


class _Jumps:
    """Lowers one kind of jump (`return`, `break` or `continue`) in a block to a flag."""

    def __init__(self, kinds, flag: str, replace, into_loops: bool, on_loop=None) -> None:
        self.kinds, self.flag, self.replace = kinds, flag, replace
        self.into_loops, self.on_loop = into_loops, on_loop

    def lower(self, block: list) -> list:
        out: list = []
        for i, statement in enumerate(block):
            if isinstance(statement, self.kinds):
                return out + self.replace(statement)
            if not _contains(statement, self.kinds, self.into_loops):
                out.append(statement)
                continue
            rest = block[i + 1:]
            if isinstance(statement, ast.If):
                body_jumps = _always_jumps(statement.body, self.kinds)
                else_jumps = _always_jumps(statement.orelse, self.kinds)
                if body_jumps and not else_jumps:
                    statement.orelse, rest = statement.orelse + rest, []
                elif else_jumps and not body_jumps:
                    statement.body, rest = statement.body + rest, []
                elif body_jumps and else_jumps:
                    rest = []
            fields = ("body", "orelse", "finalbody")
            if isinstance(statement, _LOOPS) and self.into_loops:  # a `return` in a loop
                self.on_loop(statement)
                if statement.orelse:  # a loop left by `return` skips its else clause
                    statement.orelse = [ast.If(test=_not_flag(self.flag),
                                               body=statement.orelse, orelse=[])]
            elif isinstance(statement, _LOOPS):  # only a jump in its else is this loop's
                fields = ("orelse",)
            for field in fields:
                if isinstance(getattr(statement, field, None), list):
                    setattr(statement, field, self.lower(getattr(statement, field)))
            for handler in getattr(statement, "handlers", []):
                handler.body = self.lower(handler.body)
            out.append(statement)
            if rest:
                out.append(ast.If(test=_not_flag(self.flag), body=self.lower(rest), orelse=[]))
            return out
        return out


def _add_loop_test(loop, test) -> None:
    """Adds `test` (an expression that must hold to go on) to the loop's condition."""
    if isinstance(loop, ast.While):
        loop.test = ast.BoolOp(op=ast.And(), values=[test, loop.test])
    else:
        loop.ag_extra_tests = getattr(loop, "ag_extra_tests", []) + [test]


def _not_flag(flag: str):
    return ast.UnaryOp(op=ast.Not(), operand=_name(flag))


class _Scope(ast.NodeTransformer):
    """Converts one function; functions defined inside it get their own _Scope."""

    def __init__(self, counter) -> None:
        self.counter = counter
        self.symbols: dict = {}
        self.declared_global: set = set()
        self.declared_nonlocal: set = set()
        self.first_parameter = None

    def _fresh(self, prefix: str) -> str:
        return f"{prefix}_{next(self.counter)}"

    # ---------------------------------------------------------------------- the function
    def convert(self, node: ast.FunctionDef) -> ast.FunctionDef:
        positional = node.args.posonlyargs + node.args.args
        self.first_parameter = positional[0].arg if positional else None
        for inner in _walk_scope(node.body):
            if isinstance(inner, ast.Global):
                self.declared_global.update(inner.names)
            elif isinstance(inner, ast.Nonlocal):
                self.declared_nonlocal.update(inner.names)
        docstring = node.body[:1] if isinstance(node.body[0], ast.Expr) and \
            isinstance(node.body[0].value, ast.Constant) else []
        body = self._lower_returns(node.body[len(docstring):])
        body = _flatten([self.visit(s) for s in body])
        parameters = {a.arg for a in node.args.posonlyargs + node.args.args +
                      node.args.kwonlyargs}
        parameters.update(a.arg for a in (node.args.vararg, node.args.kwarg) if a)
        undefined = [s for s in self.symbols if s not in parameters and
                     s not in self.declared_global and s not in self.declared_nonlocal]
        start = [_assign(s, _call(_operator("Undefined"), ast.Constant(s))) for s in undefined
                 if s not in (RETURN_FLAG, RETURN_VALUE)]  # those two start at the top
        node.body = docstring + start + (body or [ast.Pass()])
        _LoadsThroughLd(set(undefined)).visit(node)
        return node

    def _lower_returns(self, body: list) -> list:
        """The function's body with the `return`s inside statements lowered to flags."""
        if not any(_contains(s, ast.Return, True) for s in body if not
                   isinstance(s, ast.Return)):
            return body

        def replace(statement):
            value = statement.value if statement.value is not None else ast.Constant(None)
            return [_assign(RETURN_FLAG, ast.Constant(True)), _assign(RETURN_VALUE, value)]

        jumps = _Jumps(ast.Return, RETURN_FLAG, replace, into_loops=True,
                       on_loop=lambda loop: _add_loop_test(loop, _not_flag(RETURN_FLAG)))
        lowered = jumps.lower(body)
        return [_assign(RETURN_FLAG, ast.Constant(False)),
                _assign(RETURN_VALUE, _call(_operator("UndefinedReturnValue"))), *lowered,
                ast.Return(value=_call(_operator("retval"), _raw(_name(RETURN_VALUE))))]

    def _lower_loop_jumps(self, loop) -> list:
        """`break`/`continue` of this loop as flags; returns the statements that replace the
        loop (the break flag's start, the loop, its `else:`)."""
        before, after = [], []
        if any(_contains(s, ast.Continue, False) for s in loop.body):
            flag = self._fresh("continue")
            jumps = _Jumps(ast.Continue, flag,
                           lambda s: [_assign(flag, ast.Constant(True))], into_loops=False)
            loop.body = [_assign(flag, ast.Constant(False))] + jumps.lower(loop.body)
        if any(_contains(s, ast.Break, False) for s in loop.body):
            flag = self._fresh("break")
            jumps = _Jumps(ast.Break, flag, lambda s: [_assign(flag, ast.Constant(True))],
                           into_loops=False)
            loop.body = jumps.lower(loop.body)
            _add_loop_test(loop, _not_flag(flag))
            before.append(_assign(flag, ast.Constant(False)))
            if loop.orelse:
                after.append(ast.If(test=_not_flag(flag), body=loop.orelse, orelse=[]))
        elif loop.orelse:
            after.extend(loop.orelse)
        loop.orelse = []
        return before, after

    # ------------------------------------------------------------------- nested functions
    def visit_FunctionDef(self, node):
        return _Scope(self.counter).convert(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        return node

    # -------------------------------------------------------------------------- statements
    def _symbols_of(self, statements: list) -> list:
        """The names, then the composite symbols (`a.total`), the statements assign."""
        names = _assigned(statements)
        self.symbols.update(dict.fromkeys(names))
        return names + _composites(statements)

    def _declarations(self, symbols: list) -> list:
        """`nonlocal` (and `global`, for the function's globals) statements for the names
        among the symbols."""
        symbols = [s for s in symbols if s.isidentifier()]
        declarations: list = []
        enclosing = [s for s in symbols if s not in self.declared_global]
        if enclosing:
            declarations.append(ast.Nonlocal(names=enclosing))
        globals_ = [s for s in symbols if s in self.declared_global]
        if globals_:
            declarations.append(ast.Global(names=globals_))
        return declarations

    def _body_function(self, prefix: str, statements: list, symbols: list,
                       args=()) -> ast.FunctionDef:
        """A function running the (converted) statements on the enclosing variables."""
        declarations = self._declarations(symbols)
        body = _flatten([self.visit(s) for s in statements])
        return _def(self._fresh(prefix), declarations + (body or [ast.Pass()]), list(args))

    def _state_functions(self, symbols: list) -> tuple:
        """get_state and set_state over the symbols; a composite one (`a.total`) reads as
        Undefined while it does not exist and is assigned only when defined."""
        names = [s for s in symbols if s.isidentifier()]
        composites = symbols[len(names):]
        values = [_raw(_name(s)) for s in names] + [
            _call(_operator("composite_value"), _lambda(_expression(c, ast.Load())),
                  ast.Constant(c)) for c in composites]
        get_state = _def(self._fresh("get_state"),
                         [ast.Return(value=ast.Tuple(elts=values, ctx=ast.Load()))], [])
        setter = self._declarations(names)
        if names:
            target = ast.Tuple(elts=[_name(s, ast.Store()) for s in names], ctx=ast.Store())
            part = ast.Subscript(value=_name("vars_"), slice=ast.Slice(
                upper=ast.Constant(len(names))), ctx=ast.Load())
            setter.append(ast.Assign(targets=[target], value=part))
        for k, c in enumerate(composites, len(names)):
            item = ast.Subscript(value=_name("vars_"), slice=ast.Constant(k), ctx=ast.Load())
            setter.append(ast.If(test=_call(_operator("is_defined"), item), orelse=[], body=[
                ast.Assign(targets=[_expression(c, ast.Store())], value=item)]))
        set_state = _def(self._fresh("set_state"), setter or [ast.Pass()], ["vars_"])
        return get_state, set_state

    @staticmethod
    def _statement(node, helpers: list, operator: str, args: list) -> list:
        """The helper definitions and the operator call replacing `node` (at its line)."""
        call = ast.Expr(value=_call(_operator(operator), *args))
        return [ast.copy_location(s, node) for s in helpers + [call]]

    def visit_If(self, node):
        symbols = self._symbols_of(node.body + node.orelse)
        body = self._body_function("if_body", node.body, symbols)
        orelse = self._body_function("else_body", node.orelse, symbols)
        get_state, set_state = self._state_functions(symbols)
        return self._statement(
            node, [body, orelse, get_state, set_state], "if_stmt",
            [self.visit(node.test), _name(body.name), _name(orelse.name), _name(get_state.name),
             _name(set_state.name), _names_tuple(symbols)])

    def visit_While(self, node):
        before, after = self._lower_loop_jumps(node)
        options = _take_loop_options(node)
        test_assigns = _assigned([ast.Expr(value=node.test)])  # `while (x := f()) > 0:`
        symbols = self._symbols_of(node.body + [ast.Expr(value=node.test)])
        body = self._body_function("loop_body", node.body, symbols)
        test = _def(self._fresh("loop_test"), self._declarations(test_assigns) +
                    [ast.Return(value=self.visit(node.test))], [])
        get_state, set_state = self._state_functions(symbols)
        converted = self._statement(
            node, [test, body, get_state, set_state], "while_stmt",
            [_name(test.name), _name(body.name), _name(get_state.name), _name(set_state.name),
             _names_tuple(symbols), self.visit(options)])
        return before + converted + _flatten([self.visit(s) for s in after])

    def visit_For(self, node):
        before, after = self._lower_loop_jumps(node)
        options = _take_loop_options(node)
        iterate = self._fresh("itr")
        node.body = [ast.Assign(targets=[node.target], value=_name(iterate))] + node.body
        symbols = self._symbols_of(node.body)
        body = self._body_function("loop_body", node.body, symbols, [iterate])
        helpers = [body]
        extra_tests = getattr(node, "ag_extra_tests", [])
        if extra_tests:
            test = extra_tests[0] if len(extra_tests) == 1 else \
                ast.BoolOp(op=ast.And(), values=extra_tests)
            extra = _def(self._fresh("extra_test"), [ast.Return(value=self.visit(test))],
                              [])
            helpers.append(extra)
            extra_test = _name(extra.name)
        else:
            extra_test = ast.Constant(None)
        get_state, set_state = self._state_functions(symbols)
        converted = self._statement(
            node, helpers + [get_state, set_state], "for_stmt",
            [self.visit(node.iter), extra_test, _name(body.name), _name(get_state.name),
             _name(set_state.name), _names_tuple(symbols), self.visit(options)])
        return before + converted + _flatten([self.visit(s) for s in after])

    def visit_AnnAssign(self, node):
        """An annotated name cannot be nonlocal: keep the assignment, drop the annotation."""
        node = self.generic_visit(node)
        if node.value is None:
            return None
        return ast.copy_location(ast.Assign(targets=[node.target], value=node.value), node)

    # ------------------------------------------------------------------------- expressions
    def visit_BoolOp(self, node):
        if any(isinstance(n, ast.NamedExpr) for n in _walk_scope(node.values)):
            return self.generic_visit(node)  # `x := ...` in a lambda would bind there
        values = [self.visit(v) for v in node.values]
        operator = "and_" if isinstance(node.op, ast.And) else "or_"
        result = values[-1]
        for value in reversed(values[:-1]):
            result = _call(_operator(operator), _lambda(value), _lambda(result))
        return result

    def visit_UnaryOp(self, node):
        node = self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return _call(_operator("not_"), node.operand)
        return node

    def visit_IfExp(self, node):
        node = self.generic_visit(node)
        return _call(_operator("if_exp"), node.test, _lambda(node.body), _lambda(node.orelse))

    def visit_Call(self, node):
        node = self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id == "super":
            if not node.args and self.first_parameter:
                # The converted method has no class cell of its own: name the class (a free
                # variable of the factory) and the instance.
                node.args = [_name("__class__"), _name(self.first_parameter)]
            return node
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and \
                func.value.id == OPERATORS:
            return node
        args = ast.Tuple(elts=node.args, ctx=ast.Load())
        if node.keywords:
            kwargs = ast.Dict(keys=[ast.Constant(k.arg) if k.arg else None
                                    for k in node.keywords],
                              values=[k.value for k in node.keywords])
        else:
            kwargs = ast.Constant(None)
        return _call(_operator("converted_call"), func, args, kwargs)


def _def(name: str, body: list, args: list) -> ast.FunctionDef:
    node = ast.FunctionDef(name=name, args=ast.arguments(
        posonlyargs=[], args=[ast.arg(arg=a) for a in args], kwonlyargs=[], kw_defaults=[],
        defaults=[]), body=body, decorator_list=[], returns=None)
    if "type_params" in ast.FunctionDef._fields:
        node.type_params = []
    return node


def _lambda(body) -> ast.Lambda:
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[],
                                         kw_defaults=[], defaults=[]), body=body)


def _names_tuple(names: list) -> ast.Tuple:
    return ast.Tuple(elts=[ast.Constant(n) for n in names], ctx=ast.Load())


def _flatten(statements: list) -> list:
    """The visited statements as one list (a visit may give a list, or None to drop one)."""
    out = []
    for s in statements:
        out.extend(s if isinstance(s, list) else [] if s is None else [s])
    return out


def _is_set_loop_options(statement) -> bool:
    if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
        return False
    func = statement.value.func
    return (isinstance(func, ast.Attribute) and func.attr == "set_loop_options") or \
        (isinstance(func, ast.Name) and func.id == "set_loop_options")


def _take_loop_options(loop):
    """The keywords of `tf.autograph.experimental.set_loop_options(...)` calls at the top of
    the loop body as a dict expression (removed from the body); None without them."""
    keys, values = [], []
    while loop.body and _is_set_loop_options(loop.body[0]):
        for keyword in loop.body.pop(0).value.keywords:
            keys.append(ast.Constant(keyword.arg))
            values.append(keyword.value)
    if not loop.body:
        loop.body = [ast.Pass()]
    return ast.Dict(keys=keys, values=values) if keys else ast.Constant(None)


class _LoadsThroughLd(ast.NodeTransformer):
    """Wraps reads of possibly undefined variables in `ag__.ld(...)`."""

    def __init__(self, names: set) -> None:
        self.names = names

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.names and \
                not getattr(node, "ag_raw", False):
            return _call(_operator("ld"), _raw(node))
        return node
