import { Button, Group, Loader, Paper, PasswordInput, Radio, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Account } from '../../../common/auth';
import {
  ROLES,
  type Role,
  RoleLabels,
  type User,
  UserCreateSchema,
  UserMessages,
  UserUpdateSchema,
} from '../../../common/users';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { ApiError } from '../../lib/http';
import { useAccount } from '../../shell/account';
import { accountKey } from '../auth/api';
import { createUser, getUser, updateUser, userKey, usersKey } from './api';
import { NoAccess } from './no-access';
import { TwoFactorPanel } from './two-factor-panel';

interface FormValues {
  name: string;
  username: string;
  password: string;
  currentPassword: string;
  role: Role;
}

/**
 * /users/new and /users/edit/{userId}: administrators for anyone, other staff only for their own
 * account ('Mijn account'); anything else shows 'Geen toegang'.
 */
export function UserFormPage() {
  const { userId } = useParams();
  const account = useAccount().data;
  if (!account) return null;
  const isOwn = userId === account._id;
  if (account.role !== 'admin' && !isOwn) return <NoAccess />;
  return <UserForm userId={userId} account={account} />;
}

// Name, username, password (on edit only checked when filled), the current password for one's
// own new password, and the role for administrators.
function UserForm({ userId, account }: { userId?: string; account: Account }) {
  const isEdit = Boolean(userId);
  const isOwn = userId === account._id;
  const isAdmin = account.role === 'admin';
  const home = isAdmin ? '/users' : '/';
  const navigate = useNavigate();
  const client = useQueryClient();
  const user = useQuery({
    queryKey: userKey(userId ?? ''),
    queryFn: () => getUser(userId!),
    enabled: isEdit,
    retry: false,
  });
  const form = useForm<FormValues>({
    mode: 'controlled',
    initialValues: { name: '', username: '', password: '', currentPassword: '', role: 'staff' },
    validate: schemaResolver(isEdit ? UserUpdateSchema : UserCreateSchema, { sync: true }),
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: form is stable; only a newly loaded user resets the fields.
  useEffect(() => {
    if (user.data)
      form.setValues({
        name: user.data.name,
        username: user.data.username,
        password: '',
        currentPassword: '',
        role: user.data.role,
      });
  }, [user.data]);

  useEffect(() => {
    if (user.error instanceof ApiError && user.error.status === 404) {
      showDanger(UserMessages.notFoundTitle, UserMessages.notFound);
      navigate(home);
    } else if (user.error) {
      showDanger(UserMessages.fetchFailed, user.error);
    }
  }, [user.error, navigate, home]);

  const save = useMutation({
    mutationFn: ({ currentPassword, role, ...values }: FormValues) => {
      // Only an administrator sends a role; the current password only for one's own new password.
      const body = {
        ...values,
        ...(isAdmin ? { role } : {}),
        ...(isOwn && values.password ? { currentPassword } : {}),
      };
      return isEdit ? updateUser(userId!, body) : createUser(body);
    },
    onSuccess: (saved: User) => {
      showSuccess(isEdit ? UserMessages.saved : UserMessages.created);
      void client.invalidateQueries({ queryKey: usersKey });
      if (isOwn) client.setQueryData<Account>(accountKey, saved);
      navigate(home);
    },
    onError: (err) => showDanger(UserMessages.invalidTitle, err),
  });

  if (isEdit && user.isPending) return <Loader />;

  return (
    <>
      <PageTitle>{isOwn ? 'Mijn account' : isEdit ? 'Gebruiker bewerken' : 'Nieuwe gebruiker'}</PageTitle>
      <Paper withBorder p="md" maw={520}>
        <form
          onSubmit={form.onSubmit(
            (values) => save.mutate(values),
            (errors) =>
              showDanger(UserMessages.invalidTitle, Object.values(errors).filter(Boolean).join('\n')),
          )}
          noValidate
        >
          <Stack>
            <TextInput label="Naam" withAsterisk {...form.getInputProps('name')} />
            <TextInput
              label="Gebruikersnaam"
              withAsterisk
              autoComplete="off"
              {...form.getInputProps('username')}
            />
            {isOwn && (
              <PasswordInput
                label="Huidig wachtwoord"
                description="Alleen nodig om je wachtwoord te wijzigen."
                autoComplete="current-password"
                {...form.getInputProps('currentPassword')}
              />
            )}
            <PasswordInput
              label={isOwn ? 'Nieuw wachtwoord' : 'Wachtwoord'}
              withAsterisk={!isEdit}
              description={
                isEdit
                  ? 'Laat leeg om het wachtwoord te behouden. Minimaal 8 tekens, 1 hoofdletter en 1 cijfer.'
                  : 'Minimaal 8 tekens, 1 hoofdletter en 1 cijfer.'
              }
              autoComplete="new-password"
              {...form.getInputProps('password')}
            />
            {isAdmin && (
              <Radio.Group
                label="Rol"
                description="Een beheerder beheert gebruikers; een medewerker alleen het eigen account."
                {...form.getInputProps('role')}
              >
                <Group mt="xs">
                  {ROLES.map((role) => (
                    <Radio key={role} value={role} label={RoleLabels[role]} />
                  ))}
                </Group>
              </Radio.Group>
            )}
            <Group>
              <Button type="submit" loading={save.isPending}>
                Opslaan
              </Button>
              <Button variant="default" component={Link} to={home}>
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
