import { Button, Group } from '@mantine/core';
import { Link } from 'react-router';

interface FormActionsProps {
  /** Where 'Terug' goes (the list the form belongs to). */
  backTo: string;
  isSaving: boolean;
  /** The submit button's text; 'Opslaan' unless the spec names another. */
  saveLabel?: string;
  isSaveDisabled?: boolean;
}

/** The row under a form: the submit button (spinning while saving) and 'Terug' to the list. */
export function FormActions({
  backTo,
  isSaving,
  saveLabel = 'Opslaan',
  isSaveDisabled = false,
}: FormActionsProps) {
  return (
    <Group>
      <Button type="submit" loading={isSaving} disabled={isSaveDisabled}>
        {saveLabel}
      </Button>
      <Button variant="default" component={Link} to={backTo}>
        Terug
      </Button>
    </Group>
  );
}
