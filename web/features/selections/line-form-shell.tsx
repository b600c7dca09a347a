import { Alert, Button, Group, List, Stack } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import type { QueryNode } from '../../../common/query-tree';

/** What every line form gets: the line being edited (or null) and what to do with the new line. */
export interface LineFormProps {
  current: QueryNode | null;
  onSubmit: (node: QueryNode) => void;
  onCancel: () => void;
}

/**
 * The frame of a line form: its fields, the rule messages of the last try (spec 001 §5) and the
 * buttons 'Toevoegen' / 'Opslaan' and 'Annuleren'. `build` answers the line or the messages.
 */
export function LineFormShell(
  props: LineFormProps & {
    build: () => { node: QueryNode } | { errors: string[] };
    children: ReactNode;
  },
) {
  const [errors, setErrors] = useState<string[]>([]);
  const handleSubmit = () => {
    const built = props.build();
    if ('errors' in built) {
      setErrors(built.errors);
      return;
    }
    setErrors([]);
    props.onSubmit(built.node);
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        handleSubmit();
      }}
    >
      <Stack>
        {props.children}
        {errors.length > 0 && (
          <Alert color="red" title="Foute invoer" data-testid="line-errors">
            <List size="sm">
              {errors.map((e) => (
                <List.Item key={e}>{e}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        <Group>
          <Button type="submit">{props.current ? 'Opslaan' : 'Toevoegen'}</Button>
          <Button variant="default" onClick={props.onCancel}>
            Annuleren
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
