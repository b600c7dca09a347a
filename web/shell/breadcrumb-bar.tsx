import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { Link, useMatches } from 'react-router';
import { appRoutes } from '../routes';
import { type AppRoute, crumbTrail, type NameLoader } from './crumbs';

/**
 * The breadcrumb bar (spec 001 §2 Shell): the matched route's trail from the route table, each
 * crumb a link to its route's screen; names (partner, dataset, campaign...) are loaded, shown as a
 * plain word while loading or when the entity cannot be loaded, never as an id.
 */
export function BreadcrumbBar() {
  const matches = useMatches();
  const leaf = matches.at(-1);
  const route = leaf?.handle as AppRoute | undefined;
  const crumbs = route && leaf ? crumbTrail(appRoutes, route, leaf.params) : [];
  const loaders = crumbs.flatMap((c) => (typeof c.title === 'string' ? [] : [c.title]));
  const names = useQueries({
    queries: loaders.map((l: NameLoader) => ({ queryKey: l.key, queryFn: l.load, retry: false })),
  });
  if (crumbs.length === 0) return null;
  let n = 0;
  const titles = crumbs.map((c) => {
    if (typeof c.title === 'string') return c.title;
    const name = names[n++]?.data;
    return name || c.title.fallback;
  });
  return (
    // A nav landmark: Breadcrumbs' root is a plain div, on which aria-label names nothing.
    <nav aria-label="Kruimelpad">
      {/* Long names (a campaign's, a mailing's) wrap to the next line and are cut off with '…'
          where one alone is wider than the screen, so a phone keeps its page width. */}
      <Breadcrumbs mb="md" styles={{ root: { flexWrap: 'wrap', rowGap: 4, minWidth: 0 } }}>
        {crumbs.map((c, i) =>
          i === crumbs.length - 1 ? (
            <Text key={c.to} size="sm" truncate="end" maw="100%" title={titles[i]}>
              {titles[i]}
            </Text>
          ) : (
            <Anchor
              key={c.to}
              component={Link}
              to={c.to}
              size="sm"
              truncate="end"
              maw="100%"
              title={titles[i]}
            >
              {titles[i]}
            </Anchor>
          ),
        )}
      </Breadcrumbs>
    </nav>
  );
}
