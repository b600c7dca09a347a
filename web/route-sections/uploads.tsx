import { datasetName, partnerName } from '../shell/crumb-names';
import type { AppRoute } from '../shell/crumbs';
import { lazyScreen } from '../shell/lazy-screen';

const AvgLookupPage = lazyScreen(() => import('../features/avg/avg-lookup-page'), 'AvgLookupPage');
const BlacklistDomainListPage = lazyScreen(
  () => import('../features/blacklists/domain-list'),
  'BlacklistDomainListPage',
);
const BlacklistPage = lazyScreen(() => import('../features/blacklists/blacklist-page'), 'BlacklistPage');
const BlacklistUploadPage = lazyScreen(
  () => import('../features/blacklists/blacklist-upload-page'),
  'BlacklistUploadPage',
);
const DnsCheckPage = lazyScreen(() => import('../features/dns-check/dns-check-page'), 'DnsCheckPage');
const DeleteAllPage = lazyScreen(() => import('../features/imports/deleteall-page'), 'DeleteAllPage');
const UploadPage = lazyScreen(() => import('../features/imports/upload-page'), 'UploadPage');

/**
 * The uploads, deleting from a file, the blacklists, the DNS check and the AVG requests (the Upload
 * CSV menu: where an address's data comes in, is blocked and is removed).
 */
export const uploadRoutes: AppRoute[] = [
  // /upload/{partnerId?}/{datasetId?} and /deleteall/...: one route per depth, named crumbs.
  {
    path: '/upload',
    element: <UploadPage />,
    title: 'Upload CSV',
    menu: { section: 'Upload CSV', order: 1 },
  },
  { path: '/upload/:partnerId', element: <UploadPage />, title: partnerName, parent: '/upload' },
  {
    path: '/upload/:partnerId/:datasetId',
    element: <UploadPage />,
    title: datasetName,
    parent: '/upload/:partnerId',
  },
  {
    path: '/deleteall',
    element: <DeleteAllPage />,
    title: 'Verwijder uit bestand',
    menu: { section: 'Upload CSV', order: 2 },
  },
  { path: '/deleteall/:partnerId', element: <DeleteAllPage />, title: partnerName, parent: '/deleteall' },
  {
    path: '/deleteall/:partnerId/:datasetId',
    element: <DeleteAllPage />,
    title: datasetName,
    parent: '/deleteall/:partnerId',
  },
  {
    path: '/blacklist/upload',
    element: <BlacklistUploadPage />,
    title: 'Blacklist uploaden',
    parent: '/blacklist',
    menu: { section: 'Upload CSV', order: 3 },
  },
  {
    path: '/blacklist',
    element: <BlacklistPage />,
    title: 'Blacklist',
    menu: { section: 'Upload CSV', order: 4 },
  },
  {
    path: '/blacklist/domain',
    element: <BlacklistDomainListPage />,
    title: 'Domein blacklist',
    parent: '/blacklist',
    menu: { section: 'Upload CSV', order: 5 },
  },
  {
    path: '/dns-check',
    element: <DnsCheckPage />,
    title: 'DNS Check',
    menu: { section: 'Upload CSV', order: 6 },
  },
  {
    path: '/avg',
    element: <AvgLookupPage />,
    title: 'AVG-verzoeken',
    menu: { section: 'Upload CSV', order: 7 },
  },
];
