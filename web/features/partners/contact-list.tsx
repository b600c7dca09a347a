import { ActionIcon, Button, Group } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { type Contact, ContactMessages, PartnerMessages } from '../../../common/partners';
import { fullName, GENDER_LABELS, type Gender } from '../../../common/person';
import { confirmAction } from '../../components/confirm';
import { ListView } from '../../components/list-view';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { deleteContact, getPartner, partnerKey } from './api';

/** /partners/{id}/contacts: the partner's contact persons with new, edit and delete. */
export function ContactListPage() {
  const { partnerId: id } = useParams() as { partnerId: string };
  const client = useQueryClient();
  const partner = useQuery({ queryKey: partnerKey(id), queryFn: () => getPartner(id), retry: false });
  useFailedQueryAlert(partner.error, PartnerMessages.fetchFailed);
  const remove = useMutation({
    mutationFn: (c: Contact) => deleteContact(id, c._id),
    onSuccess: () => {
      showSuccess(ContactMessages.deleted);
      void client.invalidateQueries({ queryKey: partnerKey(id) });
    },
    onError: (err) => showDanger(ContactMessages.deleteFailed, err),
  });

  return (
    <>
      <PageTitle
        actions={
          <Group>
            <Button variant="default" component={Link} to="/partners">
              Terug
            </Button>
            <Button component={Link} to={`/partners/${id}/contacts/new`}>
              Nieuwe contactpersoon
            </Button>
          </Group>
        }
      >
        Contactpersonen van {partner.data?.name ?? id}
      </PageTitle>
      <ListView<Contact>
        items={partner.error ? [] : partner.data?.contactPersons}
        rowKey={(c) => c._id}
        searchText={(c) => `${fullName(c)} ${c.email} ${c.username} ${c._id}`}
        emptyMessage="Geen contactpersonen gevonden."
        columns={[
          { header: 'Naam', render: fullName },
          { header: 'Geslacht', render: (c) => GENDER_LABELS[c.gender as Gender] ?? c.gender },
          { header: 'E-mail', render: (c) => c.email },
          { header: 'Telefoon', render: (c) => c.phoneNumber },
          { header: 'Gebruikersnaam', render: (c) => c.username },
        ]}
        actions={(c) => (
          <>
            <ActionIcon
              variant="subtle"
              component={Link}
              to={`/partners/${id}/contacts/${c._id}/edit`}
              aria-label={`Bewerk ${fullName(c)}`}
            >
              <IconPencil size={18} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Verwijder ${fullName(c)}`}
              onClick={() =>
                confirmAction({
                  title: 'Contactpersoon verwijderen?',
                  message: `Weet je zeker dat je ${fullName(c) || c.email || 'deze contactpersoon'} wilt verwijderen?`,
                  onConfirm: () => remove.mutate(c),
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
