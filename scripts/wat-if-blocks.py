#!/usr/bin/env python3
"""Rewrite every `if` without a result in a binaryen .wat (wasm-dis output) as blocks and br_if.

    python3 scripts/wat-if-blocks.py IN.wat OUT.wat

    (if C A)         ->  (block $__tN (br_if $__tN (i32.eqz C)) A)
    (if C A B)       ->  (block $__eN (block $__tN (br_if $__tN (i32.eqz C)) A (br $__eN)) B)

The same control flow, so optimizing compilers emit the same code (build.sh's note has the
measurements), but V8's baseline compiler (Liftoff), which compiles each function on its first
call, copies its whole register state (a slot per local) at every `if` for the else arm and again
where the arms meet, and holds every copy until the function is compiled: for the decoders (60-65
locals, ~100 and ~190 ifs) that was a fifth to a quarter of the memory it took (1.05 -> 0.83 MB,
1.62 -> 1.16 MB), and in a VM that maps each fresh page for ~16 us, a millisecond or two of the
first decode. Blocks reached only by br_if take one state where the branch meets them.

Fails (exit 1) on anything it does not know how to read, rather than guess: block comments,
unbalanced parentheses, an `if` of a form it does not know, a branch by depth rather than by
label (new blocks would change its target), labels of ours that the input already uses. Arms are
written as wasm-dis prints them, `(then ...)`/`(else ...)` or one expression each.
"""
import re
import sys

TOKEN = re.compile(r'\(;|\(|\)|"(?:[^"\\]|\\.)*"|;;[^\n]*|[^\s()";]+|;')


def parse(text):
    stack = [[]]
    for m in TOKEN.finditer(text):
        t = m.group(0)
        if t.startswith(';;'):
            continue
        if t == '(;' or t == ';':
            raise SystemExit('wat-if-blocks: block comment or stray ";" at offset %d' % m.start())
        if t == '(':
            stack.append([])
        elif t == ')':
            if len(stack) == 1:
                raise SystemExit('wat-if-blocks: unbalanced ")" at offset %d' % m.start())
            node = stack.pop()
            stack[-1].append(node)
        else:
            stack[-1].append(t)
    if len(stack) != 1:
        raise SystemExit('wat-if-blocks: unbalanced "("')
    return stack[0]


def is_node(x, head=None):
    return isinstance(x, list) and len(x) > 0 and (head is None or x[0] == head)


def arm(a):
    return a[1:] if is_node(a, 'then') or is_node(a, 'else') else [a]


class Rewriter:
    def __init__(self):
        self.n = 0

    def visit(self, x):
        if not isinstance(x, list):
            return x
        if is_node(x) and x[0] in ('br', 'br_if', 'br_table', 'delegate', 'rethrow'):
            # branches must name their targets: a depth would change meaning under new blocks
            for a in x[1:]:
                if isinstance(a, str) and not a.startswith('$'):
                    raise SystemExit('wat-if-blocks: a branch by depth (%s %s)' % (x[0], a))
        x = [self.visit(e) for e in x]
        if not is_node(x, 'if'):
            return x
        rest = x[1:]
        if any(is_node(e, 'result') or is_node(e, 'param') or is_node(e, 'type') for e in rest):
            return x  # a value-producing if: left as it is (a handful)
        if not rest or not isinstance(rest[0], list) or len(rest) not in (2, 3):
            raise SystemExit('wat-if-blocks: an if of a form it does not know: %s' % str(x)[:200])
        cond, then = rest[0], rest[1]
        if is_node(cond, 'then') or is_node(cond, 'else'):
            raise SystemExit('wat-if-blocks: an if without a folded condition')
        self.n += 1
        t, e = '$__t%d' % self.n, '$__e%d' % self.n
        head = ['br_if', t, ['i32.eqz', cond]]
        if len(rest) == 2:
            return ['block', t, head] + arm(then)
        return ['block', e, ['block', t, head] + arm(then) + [['br', e]]] + arm(rest[2])


def write(x, out):
    if not isinstance(x, list):
        out.append(x)
        return
    out.append('\n(')
    for i, e in enumerate(x):
        if i:
            out.append(' ')
        write(e, out)
    out.append(')')


def main():
    if len(sys.argv) != 3:
        raise SystemExit('usage: wat-if-blocks.py IN.wat OUT.wat')
    text = open(sys.argv[1], encoding='utf-8').read()
    if re.search(r'\$__[te][0-9]', text):
        raise SystemExit('wat-if-blocks: the input already has labels named like ours')
    sys.setrecursionlimit(100000)
    rw = Rewriter()
    tree = [rw.visit(t) for t in parse(text)]
    out = []
    for t in tree:
        write(t, out)
    with open(sys.argv[2], 'w', encoding='utf-8') as f:
        f.write(''.join(out) + '\n')
    print('wat-if-blocks: %d ifs rewritten' % rw.n, file=sys.stderr)


if __name__ == '__main__':
    main()
