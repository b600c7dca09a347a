import { Alert, Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ValueMappedMessages } from '../../../common/imports';
import type { ValueMapped } from '../../../common/mappings';
import { ListView } from '../../components/list-view';
import { PageTitle } from '../../components/page-title';
import {
  importPaths,
  listValueMapped,
  listValueMappedFields,
  valueMappedFieldKey,
  valueMappedKey,
} from './api';

/** The red alert of a failed load (spec 001 §2 /valuemapped). */
function LoadError({ error }: { error: Error }) {
  return (
    <Alert color="red" title={ValueMappedMessages.fetchFailed}>
      {error.message}
    </Alert>
  );
}

/** /valuemapped: the attributes that have value mappings, each linking to its overview. */
export function ValueMappedListPage() {
  const fields = useQuery({ queryKey: valueMappedKey, queryFn: listValueMappedFields, retry: false });
  return (
    <>
      <PageTitle>Waardemappings</PageTitle>
      {fields.isPending && <Text>Loading...</Text>}
      {fields.error && <LoadError error={fields.error} />}
      {fields.data && (
        <ListView<string>
          items={fields.data}
          rowKey={(f) => f}
          searchText={(f) => f}
          emptyMessage={ValueMappedMessages.empty}
          columns={[
            {
              header: 'Kenmerk',
              render: (f) => (
                <Anchor component={Link} to={`/valuemapped/${encodeURIComponent(f)}`}>
                  {f}
                </Anchor>
              ),
            },
          ]}
        />
      )}
    </>
  );
}

/** /valuemapped/{field}: per mapped value, the datasets whose value mappings produce it. */
export function ValueMappedFieldPage() {
  const { field } = useParams() as { field: string };
  const values = useQuery({
    queryKey: valueMappedFieldKey(field),
    queryFn: () => listValueMapped(field),
    retry: false,
  });
  return (
    <>
      <PageTitle
        actions={
          <Button variant="default" component={Link} to="/valuemapped">
            Terug
          </Button>
        }
      >
        Waardemappings van {field}
      </PageTitle>
      {values.isPending && <Text>Loading...</Text>}
      {values.error && <LoadError error={values.error} />}
      {values.data && (
        <ListView<ValueMapped>
          items={values.data}
          rowKey={(v) => v._id}
          searchText={(v) =>
            `${v._id} ${v.datasets.map((d) => `${d.name} ${d.description} ${d.partner}`).join(' ')}`
          }
          emptyMessage={ValueMappedMessages.emptyField}
          columns={[
            {
              header: 'Waarde',
              render: (v) => <Badge variant="light">{v._id === '' ? '(leeg)' : v._id}</Badge>,
            },
            {
              header: 'Bestanden',
              render: (v) => (
                <Stack gap={2}>
                  {v.datasets.map((d) => (
                    <Group key={d.id} gap="xs" data-testid="valuemapped-dataset">
                      <Anchor component={Link} to={importPaths.datasets(d.partner)} size="sm">
                        {d.partner}
                      </Anchor>
                      <Text size="sm">/</Text>
                      <Anchor component={Link} to={importPaths.headers(d.partner, d.id)} size="sm">
                        {d.description || d.name}
                      </Anchor>
                    </Group>
                  ))}
                </Stack>
              ),
            },
          ]}
        />
      )}
    </>
  );
}
