/** One breadcrumb: its title and the path it links to. */
export interface Crumb {
  title: string;
  to: string;
}

// spec 001 §2 Shell: the known breadcrumb titles, by full path.
const PATH_TITLES: Record<string, string> = {
  '/partners': 'Partners',
  '/partners/new': 'Nieuwe partner',
  '/campaigns': 'Campagnes',
  '/campaigns/new': 'Nieuwe campagne',
  '/upload': 'Upload CSV',
  '/types': 'Labels',
  '/types/new': 'Nieuw label',
  '/interest-types': 'Interesse types',
  '/interest-types/new': 'Nieuwe klikinteresse',
  '/tasks': 'Taken',
  '/counts': 'Tellingen',
  '/csv-columns': 'Export kolommen',
  '/csv-columns/new': 'Nieuwe kolom',
  '/pressure': 'Maildruk',
  '/settings': 'Instellingen',
  '/settings/testperson': 'Testpersoon',
  '/enrichment': 'Verrijkingsbestanden',
  '/enrichment/upload': 'Verrijkingsbestand uploaden',
  '/valuemapped': 'Waardemappings',
  '/deleteall': 'Verwijder uit bestand',
  '/dns-check': 'DNS Check',
  '/blacklist': 'Blacklist',
  '/blacklist/upload': 'Blacklist uploaden',
  '/blacklist/domain': 'Domein blacklist',
  '/users': 'Gebruikers',
  '/users/new': 'Nieuwe gebruiker',
  '/users/edit': 'Bewerken',
  '/selection-builder': 'Doelgroep selecteren',
  '/selection-builder/add-line': 'Regel toevoegen',
  '/selection-builder/add-line/attribute': 'Selecteren op kenmerken',
  '/selection-builder/add-line/dataset': 'Label',
  '/selection-builder/add-line/interests': 'Interesse type',
  '/selection-builder/add-line/contains': 'Externe kenmerken',
  '/selection-builder/add-line/intersect': 'Bestandsmatch',
  '/selection-builder/add-line/complement': 'Bestand uitsluiten',
};

// Titles of a segment wherever it appears (spec: commission = Commissies, participation =
// Extra inzet, headers = Map, mappings = Kenmerken).
const SEGMENT_TITLES: Record<string, string> = {
  new: 'Nieuw',
  edit: 'Bewerken',
  contacts: 'Contactpersonen',
  datasets: 'Bestanden',
  testpersons: 'Testpersonen',
  commission: 'Commissies',
  participation: 'Extra inzet',
  headers: 'Map',
  mappings: 'Kenmerken',
  mailings: 'Verzendingen',
  selections: 'Selecties',
  copy: 'Kopiëren',
  blacklist: 'Blacklist',
};

/** Routes whose third segment is a commission/participation `{type}` (spec 000 §2). */
const TYPE_ROUTE = /^\/partners\/[^/]+\/datasets\/[^/]+\/([^/]+)$/;
const DATASET_CHILDREN = new Set(['edit', 'testpersons', 'headers', 'commission', 'participation']);

/** The dataset a path is under (`/partners/{partnerId}/datasets/{datasetId}/...`), with its crumb's path. */
export function datasetInPath(pathname: string): { partnerId: string; datasetId: string; to: string } | null {
  const m = /^\/partners\/([^/]+)\/datasets\/([^/]+)/.exec(pathname);
  if (!m || m[2] === 'new') return null;
  return { partnerId: decodeURIComponent(m[1]), datasetId: decodeURIComponent(m[2]), to: m[0] };
}

/**
 * The breadcrumb trail for a path: one crumb per segment, with the spec's titles; `names` gives
 * the title of a crumb by its path (a dataset's name instead of its generated id).
 */
export function breadcrumbsFor(pathname: string, names: Record<string, string> = {}): Crumb[] {
  const segments = pathname.split('/').filter(Boolean);
  const crumbs: Crumb[] = [];
  for (let i = 0; i < segments.length; i++) {
    const to = `/${segments.slice(0, i + 1).join('/')}`;
    const segment = decodeURIComponent(segments[i]);
    let title = names[to] ?? PATH_TITLES[to] ?? SEGMENT_TITLES[segment] ?? segment;
    const typeMatch = TYPE_ROUTE.exec(to);
    if (typeMatch && !DATASET_CHILDREN.has(typeMatch[1]) && !PATH_TITLES[to]) title = 'Waarden';
    crumbs.push({ title, to });
  }
  return crumbs;
}
