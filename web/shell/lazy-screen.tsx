import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import {
  Component,
  type ComponentType,
  type LazyExoticComponent,
  lazy,
  type ReactNode,
  Suspense,
} from 'react';

/** A screen's chunk that could not be loaded (a new deploy removed it, or the network failed). */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super('Het scherm kon niet worden geladen', { cause });
    this.name = 'ChunkLoadError';
  }
}

/**
 * Makes a screen a chunk of its own, loaded on first render; returns the lazy component, whose
 * failed load throws a ChunkLoadError to the nearest ScreenBoundary.
 */
export function lazyScreen<K extends string, P extends object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() =>
    load().then(
      (module) => ({ default: module[name] }),
      (err: unknown) => {
        throw new ChunkLoadError(err);
      },
    ),
  );
}

/** The centred spinner shown while a screen's chunk loads (in the main area, or the whole page). */
export function ScreenLoader({ isFullPage = false }: { isFullPage?: boolean }) {
  return (
    <Center mih={isFullPage ? '100vh' : '50vh'} data-testid="screen-loader">
      <Loader />
    </Center>
  );
}

/** The Dutch message, with a reload button, for a screen whose chunk failed to load. */
export function ChunkLoadFailed({ isFullPage = false }: { isFullPage?: boolean }) {
  const alert = (
    <Alert color="red" title="Dit scherm kon niet worden geladen" maw={600}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">
          Er is misschien een nieuwe versie van Lijstwerk geïnstalleerd, of de verbinding is weggevallen. Laad
          de pagina opnieuw.
        </Text>
        <Button leftSection={<IconRefresh size={16} />} onClick={() => window.location.reload()}>
          Pagina opnieuw laden
        </Button>
      </Stack>
    </Alert>
  );
  return isFullPage ? <Center mih="100vh">{alert}</Center> : alert;
}

interface BoundaryProps {
  isFullPage?: boolean;
  children: ReactNode;
}

interface BoundaryState {
  error: unknown;
}

// Catches a chunk that failed to load; any other error is thrown on to React as before.
class ChunkErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error };
  }

  render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (error instanceof ChunkLoadError) return <ChunkLoadFailed isFullPage={this.props.isFullPage} />;
    throw error;
  }
}

/** Wraps lazy screens: the spinner while a chunk loads, the reload message when it fails. */
export function ScreenBoundary({ isFullPage = false, children }: BoundaryProps) {
  return (
    <ChunkErrorBoundary isFullPage={isFullPage}>
      <Suspense fallback={<ScreenLoader isFullPage={isFullPage} />}>{children}</Suspense>
    </ChunkErrorBoundary>
  );
}
