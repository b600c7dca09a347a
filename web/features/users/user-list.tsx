import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { IconKey, IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { RoleLabels, type User, UserMessages } from '../../../common/users';
import { confirmAction } from '../../components/confirm';
import { ListView } from '../../components/list-view';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { deleteUser, listUsers, usersKey } from './api';
import { NoAccess, useIsAdmin } from './no-access';

/** /users: for administrators the users list; other staff see 'Geen toegang'. */
export function UserListPage() {
  return useIsAdmin() ? <UserList /> : <NoAccess />;
}

// The users with their role, a key icon for those with 2fa, edit and delete with confirmation.
function UserList() {
  const client = useQueryClient();
  const users = useQuery({ queryKey: usersKey, queryFn: listUsers });
  useEffect(() => {
    if (users.error) showDanger(UserMessages.fetchFailed, users.error);
  }, [users.error]);
  const remove = useMutation({
    mutationFn: (user: User) => deleteUser(user._id),
    onSuccess: () => {
      showSuccess(UserMessages.deleted);
      void client.invalidateQueries({ queryKey: usersKey });
    },
    onError: (err) => showDanger(UserMessages.deleteFailed, err),
  });

  return (
    <>
      <PageTitle
        actions={
          <Button component={Link} to="/users/new">
            Nieuwe gebruiker
          </Button>
        }
      >
        Gebruikers
      </PageTitle>
      <ListView<User>
        items={users.data}
        isLoading={users.isPending && !users.error}
        rowKey={(u) => u._id}
        searchText={(u) => `${u.name} ${u.username} ${u._id}`}
        emptyMessage="Geen gebruikers gevonden."
        columns={[
          { header: 'Naam', render: (u) => u.name },
          { header: 'Gebruikersnaam', render: (u) => u.username },
          { header: 'Rol', render: (u) => RoleLabels[u.role] },
          {
            header: '2FA',
            render: (u) =>
              u['2fa'] ? (
                <Tooltip label="Tweestapsverificatie ingeschakeld">
                  <IconKey size={18} aria-label="2fa ingeschakeld" data-testid="twofa-key" />
                </Tooltip>
              ) : null,
          },
        ]}
        actions={(u) => (
          <>
            <ActionIcon
              variant="subtle"
              component={Link}
              to={`/users/edit/${u._id}`}
              aria-label={`Bewerk ${u.username}`}
            >
              <IconPencil size={18} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Verwijder ${u.username}`}
              onClick={() =>
                confirmAction({
                  title: 'Gebruiker verwijderen?',
                  message: `Weet je zeker dat je ${u.name} (${u.username}) wilt verwijderen?`,
                  onConfirm: () => remove.mutate(u),
                })
              }
            >
              <IconTrash size={18} />
            </ActionIcon>
          </>
        )}
      />
    </>
  );
}
