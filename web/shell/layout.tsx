import { Anchor, AppShell, Burger, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconListDetails } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import type { Account } from '../../common/auth';
import { fetchStylesheet } from './api';
import { BreadcrumbBar } from './breadcrumb-bar';
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
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, not an input
  useEffect(() => close(), [location.pathname, close]);
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
        <BreadcrumbBar />
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
