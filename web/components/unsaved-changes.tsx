import { Button, Group, Modal, Text } from '@mantine/core';
import { type ReactNode, useCallback, useEffect, useRef } from 'react';
import { useBlocker } from 'react-router';

/** The texts of the prompt shown when a screen with unsaved changes is left. */
export const UnsavedChangesTexts = {
  title: 'Niet-opgeslagen wijzigingen',
  body: 'Je wijzigingen zijn nog niet opgeslagen. Als je deze pagina verlaat, gaan ze verloren.',
  stay: 'Op deze pagina blijven',
  leave: 'Verlaten zonder opslaan',
} as const;

/** What useUnsavedChangesPrompt gives a screen: the modal to render and a way to let the next navigation through. */
export interface UnsavedChangesPrompt {
  /** The modal to render: shown while a navigation waits for the user's answer. */
  prompt: ReactNode;
  /** Lets navigations through without asking from now on (the screen saved its changes and leaves). */
  allowNextNavigation: () => void;
}

/**
 * Asks before leaving a screen with unsaved changes: in-app links, the breadcrumbs
 * and the browser's back and forward buttons through React Router's blocker (a modal with 'Op
 * deze pagina blijven' / 'Verlaten zonder opslaan'); a reload, closing the tab or typing another
 * address through the browser's own beforeunload question. Changing only the query string of the
 * same screen is not leaving it.
 */
export function useUnsavedChangesPrompt(isDirty: boolean): UnsavedChangesPrompt {
  const dirtyRef = useRef(isDirty);
  dirtyRef.current = isDirty;
  const allowRef = useRef(false);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => {
    if (allowRef.current) return false;
    return dirtyRef.current && currentLocation.pathname !== nextLocation.pathname;
  });

  useEffect(() => {
    if (!isDirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [isDirty]);

  const allowNextNavigation = useCallback(() => {
    allowRef.current = true;
  }, []);

  const isBlocked = blocker.state === 'blocked';
  const prompt = (
    <Modal opened={isBlocked} onClose={() => blocker.reset?.()} title={UnsavedChangesTexts.title} centered>
      <Text mb="md">{UnsavedChangesTexts.body}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
          {UnsavedChangesTexts.stay}
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          {UnsavedChangesTexts.leave}
        </Button>
      </Group>
    </Modal>
  );
  return { prompt, allowNextNavigation };
}
