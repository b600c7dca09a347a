import { Alert, Center, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { RecordPreviewMessages } from '../../../common/record-preview';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { getRecordPreview, previewKey } from './api';

const count = (n: number) => n.toLocaleString('nl-NL');

/**
 * The mapping screen's preview: the dataset's first records with the columns of its
 * file (as uploaded) beside the attributes the mapping made of them (gender M/F, converted dates,
 * pc1-pc6 ...). Its query sits under the dataset's key, so a finished remap (which refreshes the
 * dataset's queries) and a save (previewKey) show it anew.
 */
export function RecordPreview({ partnerId, datasetId }: { partnerId: string; datasetId: string }) {
  const preview = useQuery({
    queryKey: previewKey(partnerId, datasetId),
    queryFn: () => getRecordPreview(partnerId, datasetId),
    retry: false,
  });
  useFailedQueryAlert(preview.error, RecordPreviewMessages.fetchFailed);
  const data = preview.data;

  return (
    <Stack gap="xs">
      <Title order={4}>{RecordPreviewMessages.title}</Title>
      {preview.isPending && (
        <Center py="md">
          <Loader size="sm" aria-label="Voorbeeld laden" />
        </Center>
      )}
      {data && data.rows.length === 0 && (
        <Text size="sm" c="dimmed">
          {RecordPreviewMessages.empty}
        </Text>
      )}
      {data && data.rows.length > 0 && (
        <>
          <Text size="sm" c="dimmed">
            De eerste {count(data.rows.length)} van {count(data.recordCount)} records: links de kolommen zoals
            ze in het bestand stonden, rechts de kenmerken die de mapping ervan maakte.
          </Text>
          {!data.applied && (
            <Alert color="orange" data-testid="preview-not-applied">
              {RecordPreviewMessages.notApplied}
            </Alert>
          )}
          <Paper withBorder>
            <Table.ScrollContainer minWidth={600}>
              <Table striped verticalSpacing={4} fz="sm" aria-label={RecordPreviewMessages.title}>
                <Table.Thead>
                  <Table.Tr>
                    {data.columns.length > 0 && (
                      <Table.Th colSpan={data.columns.length} ta="center">
                        Bestand
                      </Table.Th>
                    )}
                    {data.attributes.length > 0 && (
                      <Table.Th
                        colSpan={data.attributes.length}
                        ta="center"
                        bg="var(--mantine-color-blue-light)"
                      >
                        Kenmerken
                      </Table.Th>
                    )}
                  </Table.Tr>
                  <Table.Tr>
                    {data.columns.map((c) => (
                      <Table.Th key={`c:${c}`}>{c}</Table.Th>
                    ))}
                    {data.attributes.map((a) => (
                      <Table.Th key={`a:${a}`} bg="var(--mantine-color-blue-light)">
                        {a}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.rows.map((row) => (
                    <Table.Tr key={row.email}>
                      {row.values.map((v, i) => (
                        <Table.Td key={`c:${data.columns[i]}`}>{v}</Table.Td>
                      ))}
                      {row.attrs.map((v, i) => (
                        <Table.Td key={`a:${data.attributes[i]}`} bg="var(--mantine-color-blue-light)">
                          {v}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        </>
      )}
    </Stack>
  );
}
