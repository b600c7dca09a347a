/** One sidebar link. */
export interface NavLinkItem {
  to: string;
  label: string;
}

/** The sidebar sections and links of spec 001 §2 Shell, in order. */
export const NAV_SECTIONS: { title: string; links: NavLinkItem[] }[] = [
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
  { title: 'Gebruikers', links: [{ to: '/users', label: 'Gebruikers' }] },
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
