import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { AvgLookup } from '../../../common/avg';
import { type AvgErasure, AvgErasureMessages } from '../../../common/avg-erasure';
import { showDanger } from '../../lib/alerts';
import { formatDate } from '../../lib/dates';
import { ApiError } from '../../lib/http';
import { eraseAvg } from './api';
import { erasureItems } from './erasure-summary';

/** An erasure's answer and the address it was for. */
export interface ErasureOutcome {
  email: string;
  erasure: AvgErasure;
}

/**
 * The page's message after an erasure: erased(email) (and the test persons deleted with it), or
 * alreadyErased when someone erased it first.
 */
export function erasureOutcomeText({ email, erasure }: ErasureOutcome): string {
  const testPersons =
    erasure.testPersons > 0 ? ` ${AvgErasureMessages.erasedTestPersons(erasure.testPersons)}` : '';
  return erasure.newlyErased
    ? `${AvgErasureMessages.erased(email)}${testPersons}`
    : `${AvgErasureMessages.alreadyErased(formatDate(erasure.erasedAt))}${testPersons}`;
}

/**
 * The art. 17 erasure of the address looked up: when it was erased before, the alert saying when;
 * else the red 'Verwijderen' button and its confirmation, which lists what goes (from the look-up
 * on screen) and erases on 'Definitief verwijderen'. `onErased` gets the server's answer.
 */
export function AvgErasureAction(props: { lookup: AvgLookup; onErased: (outcome: ErasureOutcome) => void }) {
  const { lookup } = props;
  const [isOpen, setOpen] = useState(false);
  const [error, setError] = useState<{ title?: string; message: string } | null>(null);
  const erase = useMutation({
    mutationFn: () => eraseAvg({ email: lookup.email }),
    onSuccess: (erasure) => {
      setOpen(false);
      // The page says so in a green alert above the look-up, which stays until the next look-up.
      props.onErased({ email: lookup.email, erasure });
    },
    onError: (err) => {
      // 409: an upload or import holds the lock; the server says so and it passes.
      if (err instanceof ApiError && err.status === 409) {
        setError({ message: err.message || AvgErasureMessages.busy });
        showDanger(err.message || AvgErasureMessages.busy);
        return;
      }
      setError({ title: AvgErasureMessages.failed, message: err.message });
      showDanger(AvgErasureMessages.failed, err);
    },
  });

  if (lookup.erasedAt) {
    return (
      <Alert color="gray" data-testid="avg-erased">
        {AvgErasureMessages.alreadyErased(formatDate(lookup.erasedAt))}
      </Alert>
    );
  }

  const handleOpen = () => {
    setError(null);
    setOpen(true);
  };
  return (
    <>
      <Group>
        <Button color="red" leftSection={<IconTrash size={16} />} onClick={handleOpen}>
          {AvgErasureMessages.erase}
        </Button>
      </Group>
      <Modal
        opened={isOpen}
        onClose={() => !erase.isPending && setOpen(false)}
        title={AvgErasureMessages.confirmTitle}
        size="lg"
      >
        <Stack>
          <Text>{AvgErasureMessages.confirmIntro(lookup.email)}</Text>
          <List data-testid="avg-erasure-items" spacing={4}>
            {erasureItems(lookup).map((item) => (
              <List.Item key={item}>{item}</List.Item>
            ))}
          </List>
          {error && (
            <Alert color={error.title ? 'red' : 'yellow'} title={error.title}>
              {error.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)} disabled={erase.isPending}>
              Annuleren
            </Button>
            <Button color="red" loading={erase.isPending} onClick={() => erase.mutate()}>
              {AvgErasureMessages.confirmButton}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
