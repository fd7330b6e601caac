#!/usr/bin/env python3
"""The house rule "no module imports one that imports it back": finds the import circles among
the file modules of src/ (part of `make runner-test`).

Nodes are file modules; an edge is a `crate::`, `super::` or `self::` path (and, in a `mod.rs`,
a bare path into one of its own children) outside test modules. With `--strict` a parent's use
of its children counts too (`pub use`/`pub mod` re-exports and declarations excepted). Prints
each circle with its edges and exits 1 when there is any.
"""
import os, re, sys
root = sys.argv[1] if len(sys.argv) > 1 else 'src'
STRICT = '--strict' in sys.argv
mods = {}
for d, _, fs in os.walk(root):
    for f in fs:
        if not f.endswith('.rs'): continue
        p = os.path.join(d, f)
        rel = os.path.relpath(p, root)[:-3].split(os.sep)
        if rel[-1] in ('mod', 'lib'): rel = rel[:-1]
        mods[tuple(rel)] = p
def resolve(path):
    # longest prefix that is a module
    for n in range(len(path), -1, -1):
        if tuple(path[:n]) in mods: return tuple(path[:n])
    return ()
edges = {}
for m, p in mods.items():
    src = open(p).read()
    full = src
    # drop test modules' inline bodies: cut at first #[cfg(test)] mod tests {
    src = re.sub(r'//[^\n]*', '', src)
    cut = re.search(r'#\[cfg\(test\)\]\s*mod\s+\w+\s*\{', src)
    if cut: src = src[:cut.start()]
    if STRICT: src = re.sub(r'(?m)^\s*(pub(\([^)]*\))?\s+)?(use|mod)\s[^;]*;', '', src) if False else re.sub(r'(?ms)^\s*pub(\([^)]*\))?\s+(use|mod)\s[^;]*;', '', src)
    if m and m[-1] in ('tests', 'test_fixtures', 'test_deals'): continue
    is_dir = p.endswith('mod.rs') or p.endswith('lib.rs')
    base = list(m)
    tgt = set()
    # expand use groups roughly: collect path starts
    for mt in re.finditer(r'\b(crate|super|self)((?:::\s*\w+)+)(\s*::\s*\{([^;]*?)\})?', src):
        kind, rest = mt.group(1), [x.strip() for x in mt.group(2).split('::') if x.strip()]
        if kind == 'crate': b = []
        elif kind == 'super': b = base[:-1]
        else: b = base
        while rest and rest[0] == 'super': b = b[:-1]; rest = rest[1:]
        path = b + rest
        groups = [path]
        if mt.group(4):
            for item in re.split(r',', re.sub(r'\{[^{}]*\}', '', mt.group(4))):
                item = item.strip().split(' as ')[0]
                if item: groups.append(path + [x.strip() for x in item.split('::') if x.strip()])
        for g in groups:
            r = resolve(g)
            if r != m and r != () and not (len(r) < len(m) and m[:len(r)] == r and r == tuple(base) and False):
                tgt.add(r)
    # A directory module's bare paths to its own children (`child::Item`, without `self::`):
    # the parent uses the child (counted with --strict, like any parent-to-child edge).
    if is_dir:
        for child in set(re.findall(r'(?m)^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;', full)):
            if tuple(base + [child]) in mods and re.search(r'(?<![:\w])' + child + r'\s*::', src):
                tgt.add(tuple(base + [child]))
    edges[m] = tgt
# parent mod.rs re-exporting children: skip edges parent->child (declaration), keep child->parent
def name(m): return '/'.join(m) or 'lib'
sys.setrecursionlimit(10000)
idx = {}; low = {}; st = []; on = set(); sccs = []; c = [0]
def sc(v):
    idx[v] = low[v] = c[0]; c[0] += 1; st.append(v); on.add(v)
    for w in edges.get(v, ()):
        if w not in mods: continue
        if not STRICT and w[:len(v)] == v and len(w) > len(v): continue  # parent uses child: declaration/re-export
        if w not in idx: sc(w); low[v] = min(low[v], low[w])
        elif w in on: low[v] = min(low[v], idx[w])
    if low[v] == idx[v]:
        comp = []
        while True:
            w = st.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1: sccs.append(comp)
for v in list(edges): 
    if v not in idx: sc(v)
for comp in sccs:
    print('CYCLE:', ' '.join(sorted(name(x) for x in comp)))
    cs = set(comp)
    for v in sorted(comp):
        print('   ', name(v), '->', ', '.join(sorted(name(w) for w in edges[v] if w in cs and (STRICT or not (w[:len(v)] == v and len(w) > len(v))))))
print(len(sccs), 'cycles')
sys.exit(1 if sccs else 0)
