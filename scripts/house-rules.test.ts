// The house rules of the code base (docs/architecture.md "House rules"), checked on the source
// itself: file and folder sizes, no import cycle, a doc comment on every export, no cast of a
// task payload, and docs that state what holds rather than when it was done.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from 'rolldown/utils';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const CODE_ROOTS = ['server', 'web', 'common'];
const MAX_LINES = 400;
const MAX_FEATURE_FILES = 20;

/** Every .ts/.tsx file under `dir`, relative to the repository root. */
function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...walk(rel));
    else if (/\.tsx?$/.test(name)) out.push(rel);
  }
  return out;
}

/** Whether a file is product source: not a test, a test helper, a migration or a fixture. */
function isSource(file: string): boolean {
  return (
    !/\.test\.tsx?$/.test(file) &&
    !/\.test-helpers\.tsx?$/.test(file) &&
    !file.includes(`${path.sep}test${path.sep}`) &&
    !file.includes(`${path.sep}migrations${path.sep}`)
  );
}

const SOURCES = CODE_ROOTS.flatMap(walk).filter(isSource);

/** A source file's text and its parse (the parser Vite builds with). */
function parse(file: string) {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const result = parseSync(file, text);
  return { text, module: result.module, program: result.program, comments: result.comments };
}
type Parsed = ReturnType<typeof parse>;

/** The repository files a file imports by a relative path (static, dynamic and re-exports). */
function relativeImports(file: string, { text, module }: Parsed): string[] {
  const specs = [
    ...module.staticImports.map((i) => i.moduleRequest.value),
    ...module.staticExports.flatMap((e) => e.entries.map((x) => x.moduleRequest?.value ?? '')),
    ...module.dynamicImports.map((d) =>
      text.slice(d.moduleRequest.start, d.moduleRequest.end).replace(/^['"`]|['"`]$/g, ''),
    ),
  ];
  const found: string[] = [];
  for (const spec of specs.filter((s) => s.startsWith('.'))) {
    const base = path.join(path.dirname(file), spec);
    const target = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((f) => {
      try {
        return statSync(path.join(ROOT, f)).isFile();
      } catch {
        return false;
      }
    });
    if (target) found.push(target);
  }
  return found;
}

/** The import cycles among `files`, each as the files along it (Tarjan's strongly connected parts). */
function importCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string) => {
    indices.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) connect(v);
  return cycles;
}

/** The names a file exports by a declaration that has no doc comment (`/** ... *\/`) right above it. */
function undocumentedExports({ text, program, comments }: Parsed): string[] {
  const missing: string[] = [];
  for (const statement of program.body) {
    if (statement.type !== 'ExportNamedDeclaration' && statement.type !== 'ExportDefaultDeclaration')
      continue;
    const declaration = statement.declaration;
    if (!declaration) continue; // `export { a } from './b'`: documented where it is declared
    const doc = comments.some(
      (c) =>
        c.type === 'Block' &&
        c.value.startsWith('*') &&
        c.end <= statement.start &&
        !text.slice(c.end, statement.start).trim(),
    );
    if (doc) continue;
    const line = text.slice(0, statement.start).split('\n').length;
    const names =
      'declarations' in declaration && Array.isArray(declaration.declarations)
        ? declaration.declarations.map((d) => ('name' in d.id ? String(d.id.name) : `line ${line}`))
        : [
            'id' in declaration && declaration.id && 'name' in declaration.id
              ? String(declaration.id.name)
              : `line ${line}`,
          ];
    missing.push(...names);
  }
  return missing;
}

describe('the house rules', () => {
  it(`keeps every source file at ${MAX_LINES} lines or fewer`, () => {
    const long = SOURCES.map((f) => ({
      f,
      lines: readFileSync(path.join(ROOT, f), 'utf8').split('\n').length,
    }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ f, lines }) => `${f}: ${lines}`);
    expect(long.join('\n')).toBe('');
  });

  it(`keeps every feature folder at ${MAX_FEATURE_FILES} source files or fewer`, () => {
    const counts = new Map<string, number>();
    for (const f of SOURCES) {
      const m = /^((?:server|web)\/features\/[^/]+)\/[^/]+$/.exec(f.split(path.sep).join('/'));
      if (m) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
    }
    const big = [...counts].filter(([, n]) => n > MAX_FEATURE_FILES).map(([d, n]) => `${d}: ${n}`);
    expect(big.join('\n')).toBe('');
  });

  it('has no import cycle', () => {
    const all = CODE_ROOTS.flatMap(walk);
    const graph = new Map(all.map((f) => [f, relativeImports(f, parse(f))]));
    expect(
      importCycles(graph)
        .map((c) => c.join(' <-> '))
        .join('\n'),
    ).toBe('');
  });

  it('gives every export a doc comment', () => {
    const missing = SOURCES.flatMap((f) => undocumentedExports(parse(f)).map((name) => `${f}: ${name}`));
    expect(missing.join('\n')).toBe('');
  });

  it('never casts a task payload', () => {
    const casts = SOURCES.filter((f) => f.startsWith(`server${path.sep}`)).filter((f) =>
      /\bpayload\s+as\s+[A-Z{]/.test(readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(casts.join('\n')).toBe('');
  });

  it('keeps the docs and comments free of work periods', () => {
    const files = [
      'README.md',
      ...readdirSync(path.join(ROOT, 'docs')).map((f) => path.join('docs', f)),
      // Every .ts/.tsx file, tests, test helpers, e2e journeys and benchmarks included.
      ...[...CODE_ROOTS, 'e2e', 'bench'].flatMap(walk),
    ];
    // A work period (the word session and a number) or a tracker item (the word issue and its
    // number) says when or why work was done, not what holds.
    const period = /\b(?:(?:session|sessie)\s+\d+|issue\s+#?\d+)\b/i;
    const hits = files.filter((f) => period.test(readFileSync(path.join(ROOT, f), 'utf8')));
    expect(hits.join('\n')).toBe('');
  });
});
