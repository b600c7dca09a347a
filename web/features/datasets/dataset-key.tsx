import { ActionIcon, Button, CopyButton, Group, Paper, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Dataset, DatasetMessages } from '../../../common/datasets';
import { confirmAction } from '../../components/confirm';
import { showDanger, showSuccess } from '../../lib/alerts';
import { datasetKey, datasetsKey, rotateDatasetKey } from './api';

/** The dataset's API key (read-only, shown once it exists) and the 'Nieuwe sleutel' button that replaces it. */
export function DatasetKeyPanel({ dataset }: { dataset: Dataset }) {
  const client = useQueryClient();
  const rotate = useMutation({
    mutationFn: () => rotateDatasetKey(dataset.partnerId, dataset._id),
    onSuccess: (saved) => {
      showSuccess(DatasetMessages.keyRotated);
      client.setQueryData(datasetKey(dataset.partnerId, dataset._id), saved);
      void client.invalidateQueries({ queryKey: datasetsKey(dataset.partnerId), exact: true });
    },
    onError: (err) => showDanger(DatasetMessages.keyRotateFailed, err),
  });

  const handleRotate = () => {
    if (!dataset.key) {
      rotate.mutate();
      return;
    }
    confirmAction({
      title: 'Nieuwe API-sleutel maken?',
      message: 'De huidige sleutel werkt daarna niet meer: de partner moet de nieuwe sleutel gebruiken.',
      onConfirm: () => rotate.mutate(),
    });
  };

  return (
    <Paper withBorder p="md" maw={900} mt="md">
      <Title order={4} mb="xs">
        API-sleutel
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Met deze sleutel (X-API-Key) levert de partner records aan voor dit bestand.
      </Text>
      <Group align="flex-end">
        {dataset.key ? (
          <TextInput
            label="Sleutel"
            readOnly
            value={dataset.key}
            style={{ flex: 1 }}
            styles={{ input: { fontFamily: 'monospace' } }}
            rightSection={
              <CopyButton value={dataset.key}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? 'Gekopieerd' : 'Kopieer'}>
                    <ActionIcon variant="subtle" onClick={copy} aria-label="Kopieer sleutel">
                      {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            }
          />
        ) : (
          <Text style={{ flex: 1 }}>Dit bestand heeft nog geen API-sleutel.</Text>
        )}
        <Button variant="default" onClick={handleRotate} loading={rotate.isPending}>
          Nieuwe sleutel
        </Button>
      </Group>
    </Paper>
  );
}
