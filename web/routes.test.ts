import { matchPath } from 'react-router';
import { describe, expect, it } from 'vitest';
import { LINE_TYPES } from './features/selections/line-editor-drawer';
import { appRoutes } from './routes';
import { lineTypeTitle } from './shell/crumb-names';
import { crumbTrail, paramNames, type RouteParams, titleOf } from './shell/crumbs';
import { NAV_SECTIONS } from './shell/nav';

// The route table is the one source of the router, the crumbs and the sidebar:
// these checks make a dead crumb or an id in a crumb a failing test instead of a 404 for a user.

const byPath = new Map(appRoutes.map((r) => [r.path, r]));

/** The route a path opens, as the router ranks them (static segments before params). */
function routeFor(pathname: string) {
  const matches = appRoutes.filter((r) => matchPath(r.path, pathname));
  const score = (path: string) =>
    path
      .split('/')
      .filter(Boolean)
      .map((s) => (s.startsWith(':') ? '1' : '2'))
      .join('');
  return matches.sort((a, b) => score(b.path).localeCompare(score(a.path)))[0];
}

// Params that are names, not ids (a file column, a value-mapped field, a rate or line type): a
// crumb may show them.
const NAME_PARAMS: Record<string, string> = { mapping: 'geslacht', field: 'gender', type: 'commission' };

/** Params with a sample value per name (a 24-hex id, as the generated ids are). */
function sampleParams(path: string): RouteParams {
  return Object.fromEntries(paramNames(path).map((n, i) => [n, NAME_PARAMS[n] ?? `${i}`.padStart(24, 'a')]));
}

describe('the route table', () => {
  it('has each path once, and no optional segments (each depth is a route with its own crumb)', () => {
    expect(new Set(appRoutes.map((r) => r.path)).size).toBe(appRoutes.length);
    for (const r of appRoutes) expect(r.path, r.path).not.toMatch(/\?/);
  });

  it("gives every route a screen, or a crumb link to a route that has one with the route's params", () => {
    for (const r of appRoutes) {
      if (r.element) continue;
      expect(r.to, r.path).toBeDefined();
      const target = byPath.get(r.to ?? '');
      expect(target?.element, `${r.path} → ${r.to}`).toBeDefined();
      expect(paramNames(r.path)).toEqual(expect.arrayContaining(paramNames(r.to ?? '')));
    }
  });

  it("names an existing parent for every non-top route, whose params are the route's own", () => {
    for (const r of appRoutes) {
      if (!r.parent) continue;
      const parent = byPath.get(r.parent);
      expect(parent, `${r.path}: parent ${r.parent}`).toBeDefined();
      expect(paramNames(r.path), r.path).toEqual(expect.arrayContaining(paramNames(r.parent)));
    }
  });

  it('gives every crumb of every route a link that opens a screen of the table, and never an id as a title', () => {
    for (const r of appRoutes) {
      const params = sampleParams(r.path);
      const trail = crumbTrail(appRoutes, r, params);
      expect(trail.length, r.path).toBeGreaterThan(0);
      for (const crumb of trail) {
        const opened = routeFor(crumb.to);
        expect(opened?.element, `${r.path}: crumb ${crumb.to}`).toBeDefined();
        const title = typeof crumb.title === 'string' ? crumb.title : crumb.title.fallback;
        expect(title, `${r.path}: crumb ${crumb.to}`).not.toMatch(/[0-9a-f]{24}/);
        expect(title.trim(), `${r.path}: crumb ${crumb.to}`).not.toBe('');
      }
    }
  });

  it('makes the trail of a dataset screen from names: partner and dataset link to screens', () => {
    const route = byPath.get('/partners/:partnerId/datasets/:datasetId/headers')!;
    const trail = crumbTrail(appRoutes, route, { partnerId: 'acme', datasetId: 'd1' });
    expect(trail.map((c) => c.to)).toEqual([
      '/partners',
      '/partners/acme/datasets',
      '/partners/acme/datasets',
      '/partners/acme/datasets/d1/edit',
      '/partners/acme/datasets/d1/headers',
    ]);
    expect(trail.map((c) => (typeof c.title === 'string' ? c.title : c.title.key))).toEqual([
      'Partners',
      ['crumb', 'partner', 'acme'],
      'Bestanden',
      ['crumb', 'dataset', 'acme', 'd1'],
      'Map',
    ]);
  });

  it('titles the commission, participation and other types as spec 001 §2 says', () => {
    const route = byPath.get('/partners/:partnerId/datasets/:datasetId/:type')!;
    expect(titleOf(route, { type: 'commission' })).toBe('Commissies');
    expect(titleOf(route, { type: 'participation' })).toBe('Extra inzet');
    expect(titleOf(route, { type: 'iets' })).toBe('Waarden');
  });

  it("titles the line editor's types as its menu does", () => {
    for (const t of LINE_TYPES) expect(lineTypeTitle({ type: t.type })).toBe(t.label);
    expect(lineTypeTitle({ type: 'onbekend' })).toBe('Regel');
  });
});

describe('the sidebar from the route table', () => {
  it("lists spec 001 §2's sections and links in order, each a route with a fixed title", () => {
    const expected: [string, string[]][] = [
      ['Partners', ['/partners', '/partners/new', '/types', '/valuemapped', '/statements']],
      [
        'Campagnes',
        [
          '/campaigns',
          '/selection-builder',
          '/counts',
          '/interest-types',
          '/tasks',
          '/csv-columns',
          '/pressure',
          '/reports',
          '/settings',
        ],
      ],
      ['Gebruikers', ['/users', '/audit-log']],
      [
        'Upload CSV',
        [
          '/upload',
          '/deleteall',
          '/blacklist/upload',
          '/blacklist',
          '/blacklist/domain',
          '/dns-check',
          '/avg',
        ],
      ],
      ['Verrijking', ['/enrichment/upload', '/enrichment']],
    ];
    const present = expected.filter(([title]) => title !== 'Verrijking' || byPath.has('/enrichment'));
    expect(NAV_SECTIONS.map((s) => [s.title, s.links.map((l) => l.to)])).toEqual(present);
    for (const section of NAV_SECTIONS)
      for (const link of section.links) expect(typeof byPath.get(link.to)?.title).toBe('string');
  });
});
