import path from 'node:path';
import { build, type Rolldown } from 'vite';
import { describe, expect, it } from 'vitest';

// The login page loads the entry chunk and what it imports statically; every feature screen (and
// the logged-in shell) must sit behind a dynamic import, so a visitor who is not logged in never
// downloads them.

const root = path.resolve('.');

// Builds the web app in memory (nothing written) and returns its chunks.
async function buildChunks(): Promise<Rolldown.OutputChunk[]> {
  const result = await build({
    configFile: path.join(root, 'vite.config.ts'),
    mode: 'production',
    logLevel: 'silent',
    build: { write: false },
  });
  const outputs = Array.isArray(result) ? result : [result];
  return outputs.flatMap((o) => ('output' in o ? o.output : [])).filter((c) => c.type === 'chunk');
}

// The source files (relative to the repository) of the entry chunk and of every chunk it imports
// statically: what the browser loads before anything is shown.
function staticModules(chunks: Rolldown.OutputChunk[]): string[] {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const entry = chunks.find((c) => c.isEntry);
  if (!entry) throw new Error('no entry chunk');
  const seen = new Set<string>();
  const modules: string[] = [];
  const walk = (chunk: Rolldown.OutputChunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.add(chunk.fileName);
    modules.push(...chunk.moduleIds.map((id) => path.relative(root, id)));
    for (const file of chunk.imports) walk(byFile.get(file)!);
  };
  walk(entry);
  return modules;
}

describe('the web bundle', () => {
  it('loads no feature screen and not the shell on the login page', { timeout: 180_000 }, async () => {
    const modules = staticModules(await buildChunks());
    // The walk sees the login page itself, so it does look inside the chunks.
    expect(modules).toContain(path.join('web', 'features', 'auth', 'login-page.tsx'));
    const features = modules.filter(
      (m) =>
        m.startsWith(`web${path.sep}features${path.sep}`) &&
        !m.startsWith(path.join('web', 'features', 'auth')),
    );
    expect(features).toEqual([]);
    const shell = ['routes.tsx', 'shell/layout.tsx', 'shell/logged-in-app.tsx'].map((f) =>
      path.join('web', f),
    );
    expect(modules.filter((m) => shell.includes(m))).toEqual([]);
    expect(modules.filter((m) => m.startsWith(path.join('web', 'route-sections')))).toEqual([]);
  });
});
