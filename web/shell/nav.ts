import type { Role } from '../../common/users';
import { appRoutes } from '../routes';
import { type AppRoute, MENU_SECTIONS, type MenuSection } from './crumbs';

/** One sidebar link. */
export interface NavLinkItem {
  to: string;
  label: string;
}

/** One sidebar section; `isAdminOnly` sections are shown to administrators only. */
export interface NavSection {
  title: MenuSection;
  links: NavLinkItem[];
  isAdminOnly?: boolean;
}

// Only administrators manage users (docs/decisions.md, Users and roles); others reach their own
// account through 'Mijn account' in the header.
const ADMIN_ONLY: ReadonlySet<MenuSection> = new Set(['Gebruikers']);

/**
 * The sidebar of spec 001 §2 Shell, made from the route table: per section (in the spec's order)
 * the routes with a menu place, by their order, labelled with their title. A section without
 * routes (yet) is left out.
 */
export function navSectionsFrom(routes: readonly AppRoute[]): NavSection[] {
  return MENU_SECTIONS.map((title) => ({
    title,
    links: routes
      .filter((r) => r.menu?.section === title)
      .sort((a, b) => (a.menu?.order ?? 0) - (b.menu?.order ?? 0))
      .map((r) => ({ to: r.path, label: typeof r.title === 'string' ? r.title : r.path })),
    isAdminOnly: ADMIN_ONLY.has(title) || undefined,
  })).filter((section) => section.links.length > 0);
}

/** The sidebar sections of the route table. */
export const NAV_SECTIONS: NavSection[] = navSectionsFrom(appRoutes);

/** The sections the account may see: without the administrators' ones for other staff. */
export function navSectionsFor(role: Role): NavSection[] {
  return NAV_SECTIONS.filter((section) => !section.isAdminOnly || role === 'admin');
}
