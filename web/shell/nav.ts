import type { Role } from '../../common/users';

/** One sidebar link. */
export interface NavLinkItem {
  to: string;
  label: string;
}

/** One sidebar section; `isAdminOnly` sections are shown to administrators only. */
export interface NavSection {
  title: string;
  links: NavLinkItem[];
  isAdminOnly?: boolean;
}

/** The sidebar sections and links of spec 001 §2 Shell, in order. */
export const NAV_SECTIONS: NavSection[] = [
  {
    title: 'Partners',
    links: [
      { to: '/partners', label: 'Partners' },
      { to: '/partners/new', label: 'Nieuwe partner' },
      { to: '/types', label: 'Labels' },
      { to: '/valuemapped', label: 'Waardemappings' },
    ],
  },
  {
    title: 'Campagnes',
    links: [
      { to: '/campaigns', label: 'Campagnes' },
      { to: '/selection-builder', label: 'Doelgroep selecteren' },
      { to: '/counts', label: 'Tellingen' },
      { to: '/interest-types', label: 'Interesse types' },
      { to: '/tasks', label: 'Taken' },
      { to: '/csv-columns', label: 'Export kolommen' },
      { to: '/pressure', label: 'Maildruk' },
      { to: '/settings', label: 'Instellingen' },
    ],
  },
  // Only administrators manage users (docs/decisions.md Auth); others reach their own account
  // through 'Mijn account' in the header.
  { title: 'Gebruikers', links: [{ to: '/users', label: 'Gebruikers' }], isAdminOnly: true },
  {
    title: 'Upload CSV',
    links: [
      { to: '/upload', label: 'Upload CSV' },
      { to: '/deleteall', label: 'Verwijder uit bestand' },
      { to: '/blacklist/upload', label: 'Blacklist uploaden' },
      { to: '/blacklist', label: 'Blacklist' },
      { to: '/blacklist/domain', label: 'Domein blacklist' },
      { to: '/dns-check', label: 'DNS Check' },
    ],
  },
  {
    title: 'Verrijking',
    links: [
      { to: '/enrichment/upload', label: 'Verrijkingsbestand uploaden' },
      { to: '/enrichment', label: 'Verrijkingsbestanden' },
    ],
  },
];

/** The sections the account may see: without the administrators' ones for other staff. */
export function navSectionsFor(role: Role): NavSection[] {
  return NAV_SECTIONS.filter((section) => !section.isAdminOnly || role === 'admin');
}
