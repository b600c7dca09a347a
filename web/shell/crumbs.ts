import type { QueryKey } from '@tanstack/react-query';
import type { ReactElement } from 'react';
import { generatePath } from 'react-router';

// The route table (web/routes.tsx) is the one source of the router, the breadcrumbs and the
// sidebar: each route names its title (or how to load its name) and its parent route. A crumb is
// always a route of the table, so it cannot point at a path no screen serves.

/** The params of a matched route, as React Router gives them. */
export type RouteParams = Readonly<Record<string, string | undefined>>;

/** How a crumb loads the name it shows (a partner's or dataset's name): never the id itself. */
export interface NameLoader {
  key: QueryKey;
  load: () => Promise<string>;
  /** Shown while the name loads or when it cannot be loaded (the entity is gone). */
  fallback: string;
}

/** A route's crumb title: a fixed text, or one made from the route's params (a text or a name to load). */
export type RouteTitle = string | ((params: RouteParams) => string | NameLoader);

/** The sidebar sections of spec 001 §2 Shell, in order. */
export const MENU_SECTIONS = ['Partners', 'Campagnes', 'Gebruikers', 'Upload CSV', 'Verrijking'] as const;
/** One section of the sidebar menu. */
export type MenuSection = (typeof MENU_SECTIONS)[number];

/** One route of the table. */
export interface AppRoute {
  /** The full path pattern (React Router syntax, no optional segments: give each depth its own route). */
  path: string;
  /** The screen. A route without one is a crumb only (a partner, a dataset): its path redirects to `to`. */
  element?: ReactElement;
  /** For a crumb-only route: the path pattern of the screen its crumb links to (same params). */
  to?: string;
  /** The crumb's title, and the sidebar label of a menu route. */
  title: RouteTitle;
  /** The path pattern of the route whose crumb comes before this one; its params are a subset of this one's. */
  parent?: string;
  /** Where the route is listed in the sidebar (the title is the link's label): section and order in it. */
  menu?: { section: MenuSection; order: number };
  /**
   * Routes with the same screen name show one screen that stays mounted when the path moves among
   * them (the selection builder's depths: a save that puts the new selection in the URL keeps the
   * builder, its counts and its drawer as they are). Without one, each path is a screen of its own.
   */
  screen?: string;
}

/** One crumb: its title (or the name to load) and the path of the screen it links to. */
export interface Crumb {
  title: string | NameLoader;
  to: string;
}

/** The path a route's crumb links to, for the params of the current match. */
export function crumbPath(route: AppRoute, params: RouteParams): string {
  return generatePath(route.to ?? route.path, params as Record<string, string>);
}

/** A route's title for the given params: a text, or the name to load. */
export function titleOf(route: AppRoute, params: RouteParams): string | NameLoader {
  return typeof route.title === 'string' ? route.title : route.title(params);
}

/**
 * The breadcrumb trail of a matched route: its parents' crumbs, from the top, then its own; each
 * links to the screen of its route with the params of the current match.
 */
export function crumbTrail(routes: readonly AppRoute[], leaf: AppRoute, params: RouteParams): Crumb[] {
  const byPath = new Map(routes.map((r) => [r.path, r]));
  const chain: AppRoute[] = [];
  for (
    let r: AppRoute | undefined = leaf;
    r && !chain.includes(r);
    r = r.parent ? byPath.get(r.parent) : undefined
  )
    chain.unshift(r);
  return chain.map((r) => ({ title: titleOf(r, params), to: crumbPath(r, params) }));
}

/** The names of a path pattern's params (':partnerId' → 'partnerId'). */
export function paramNames(path: string): string[] {
  return path
    .split('/')
    .filter((s) => s.startsWith(':'))
    .map((s) => s.slice(1).replace(/\?$/, ''));
}
