import { Button, Group, Loader, Paper, PasswordInput, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { UserCreateSchema, UserMessages, UserUpdateSchema } from '../../../common/users';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { ApiError } from '../../lib/http';
import { createUser, getUser, updateUser, userKey, usersKey } from './api';
import { TwoFactorPanel } from './two-factor-panel';

/** /users/new and /users/edit/{userId}: name, username, password (on edit only checked when filled). */
export function UserFormPage() {
  const { userId } = useParams();
  const isEdit = Boolean(userId);
  const navigate = useNavigate();
  const client = useQueryClient();
  const user = useQuery({ queryKey: userKey(userId ?? ''), queryFn: () => getUser(userId!), enabled: isEdit, retry: false });
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: '', username: '', password: '' },
    validate: schemaResolver(isEdit ? UserUpdateSchema : UserCreateSchema, { sync: true }),
  });

  useEffect(() => {
    if (user.data) form.setValues({ name: user.data.name, username: user.data.username, password: '' });
    // form is stable; only a newly loaded user resets the fields.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [user.data]);

  useEffect(() => {
    if (user.error instanceof ApiError && user.error.status === 404) {
      showDanger(UserMessages.notFoundTitle, UserMessages.notFound);
      navigate('/users');
    } else if (user.error) {
      showDanger(UserMessages.fetchFailed, user.error);
    }
  }, [user.error, navigate]);

  const save = useMutation({
    mutationFn: (values: { name: string; username: string; password: string }) =>
      isEdit ? updateUser(userId!, values) : createUser(values),
    onSuccess: () => {
      showSuccess(isEdit ? UserMessages.saved : UserMessages.created);
      void client.invalidateQueries({ queryKey: usersKey });
      navigate('/users');
    },
    onError: (err) => showDanger(UserMessages.invalidTitle, err),
  });

  if (isEdit && user.isPending) return <Loader />;

  return (
    <>
      <PageTitle>{isEdit ? 'Gebruiker bewerken' : 'Nieuwe gebruiker'}</PageTitle>
      <Paper withBorder p="md" maw={520}>
        <form
          onSubmit={form.onSubmit(
            (values) => save.mutate(values),
            (errors) => showDanger(UserMessages.invalidTitle, Object.values(errors).filter(Boolean).join('\n')),
          )}
          noValidate
        >
          <Stack>
            <TextInput label="Naam" withAsterisk {...form.getInputProps('name')} />
            <TextInput label="Gebruikersnaam" withAsterisk autoComplete="off" {...form.getInputProps('username')} />
            <PasswordInput
              label="Wachtwoord"
              withAsterisk={!isEdit}
              description={
                isEdit
                  ? 'Laat leeg om het wachtwoord te behouden. Minimaal 8 tekens, 1 hoofdletter en 1 cijfer.'
                  : 'Minimaal 8 tekens, 1 hoofdletter en 1 cijfer.'
              }
              autoComplete="new-password"
              {...form.getInputProps('password')}
            />
            <Group>
              <Button type="submit" loading={save.isPending}>
                Opslaan
              </Button>
              <Button variant="default" component={Link} to="/users">
                Terug
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      {isEdit && user.data && <TwoFactorPanel user={user.data} />}
    </>
  );
}
