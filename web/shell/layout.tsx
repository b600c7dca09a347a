import { Anchor, AppShell, Breadcrumbs, Burger, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconListDetails } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import type { Account } from '../../common/auth';
import { datasetKey, getDataset } from '../features/datasets/api';
import { fetchStylesheet } from './api';
import { breadcrumbsFor, datasetInPath } from './breadcrumbs';
import { navSectionsFor } from './nav';
import { SidebarStatus } from './sidebar-status';

interface LayoutProps {
  account: Account;
  onLogout: () => void;
  children: ReactNode;
}

/** The logged-in shell: header (logo, 'Log uit ({name})', menu toggle), sidebar, breadcrumbs. */
export function Layout({ account, onLogout, children }: LayoutProps) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const location = useLocation();
  // Close the small-screen menu after navigating.
  useEffect(() => close(), [location.pathname, close]);
  // A dataset's crumb shows its name (shared query cache with the dataset screens; a failure is
  // reported by the screen itself, the crumb then keeps the id).
  const inPath = datasetInPath(location.pathname);
  const dataset = useQuery({
    queryKey: datasetKey(inPath?.partnerId ?? '', inPath?.datasetId ?? ''),
    queryFn: () => getDataset(inPath!.partnerId, inPath!.datasetId),
    enabled: inPath !== null,
    retry: false,
  });
  const names = inPath && dataset.data ? { [inPath.to]: dataset.data.name } : {};
  const crumbs = breadcrumbsFor(location.pathname, names);
  useCustomStylesheet();

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group gap="sm">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            <Anchor component={Link} to="/" underline="never" aria-label="Lijstwerk home">
              <Group gap={6}>
                <IconListDetails size={26} />
                <Text fw={700} size="lg">
                  Lijstwerk
                </Text>
              </Group>
            </Anchor>
          </Group>
          <Group gap="md">
            <Anchor component={Link} to={`/users/edit/${account._id}`}>
              Mijn account
            </Anchor>
            <Anchor component="button" type="button" onClick={onLogout}>
              Log uit ({account.name})
            </Anchor>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar>
        <AppShell.Section grow component={ScrollArea} p="xs">
          <nav aria-label="Hoofdmenu">
            {navSectionsFor(account.role).map((section) => (
              <div key={section.title}>
                <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt="sm" mb={4} px="xs">
                  {section.title}
                </Text>
                {section.links.map((link) => (
                  <NavLink
                    key={link.to}
                    component={Link}
                    to={link.to}
                    label={link.label}
                    active={location.pathname === link.to}
                    py={4}
                  />
                ))}
              </div>
            ))}
          </nav>
        </AppShell.Section>
        <AppShell.Section>
          <SidebarStatus />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        {crumbs.length > 0 && (
          // A nav landmark: Breadcrumbs' root is a plain div, on which aria-label names nothing.
          <nav aria-label="Kruimelpad">
            <Breadcrumbs mb="md">
              {crumbs.map((c, i) =>
                i === crumbs.length - 1 ? (
                  <Text key={c.to} size="sm">
                    {c.title}
                  </Text>
                ) : (
                  <Anchor key={c.to} component={Link} to={c.to} size="sm">
                    {c.title}
                  </Anchor>
                ),
              )}
            </Breadcrumbs>
          </nav>
        )}
        {children}
      </AppShell.Main>
    </AppShell>
  );
}

/**
 * Injects the environment's custom stylesheet (spec 001 §2) into the page head while the shell is
 * shown, and removes it when the shell goes away (logout).
 */
function useCustomStylesheet(): void {
  const stylesheet = useQuery({
    queryKey: ['shell', 'stylesheet'],
    queryFn: fetchStylesheet,
    staleTime: Infinity,
  });
  const url = stylesheet.data?.url ?? null;
  useEffect(() => {
    if (!url) return;
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = url;
    link.dataset.customStylesheet = 'true';
    document.head.appendChild(link);
    return () => link.remove();
  }, [url]);
}
