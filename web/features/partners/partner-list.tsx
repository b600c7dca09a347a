import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { IconBan, IconDatabase, IconPencil, IconTrash, IconUsers } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { COUNTRIES } from '../../../common/countries';
import { type Partner, PartnerMessages } from '../../../common/partners';
import { confirmAction } from '../../components/confirm';
import { ListView } from '../../components/list-view';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { deletePartner, listPartners, partnersKey } from './api';

const countryName = new Map(COUNTRIES.map((c) => [c.code, c.name]));

function deleteMessage(p: Partner): string {
  const base = `Weet je zeker dat je partner ${p.name} (${p.id}) wilt verwijderen?`;
  if (p.datasetCount === 0) return base;
  return `${base} De ${p.datasetCount === 1 ? 'dataset' : `${p.datasetCount} datasets`} van deze partner en alle records daarin worden ook verwijderd.`;
}

/** /partners: the partners with search and the row actions datasets, contacts, edit, blacklist, delete. */
export function PartnerListPage() {
  const client = useQueryClient();
  const partners = useQuery({ queryKey: partnersKey, queryFn: listPartners });
  useFailedQueryAlert(partners.error, PartnerMessages.fetchListFailed);
  const remove = useMutation({
    mutationFn: (p: Partner) => deletePartner(p.id),
    onSuccess: () => {
      showSuccess(PartnerMessages.deleted);
      void client.invalidateQueries({ queryKey: partnersKey });
    },
    onError: (err) => showDanger(PartnerMessages.deleteFailed, err),
  });

  const action = (label: string, to: string, icon: React.ReactNode) => (
    <Tooltip label={label}>
      <ActionIcon variant="subtle" component={Link} to={to} aria-label={label}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );

  return (
    <>
      <PageTitle
        actions={
          <Button component={Link} to="/partners/new">
            Nieuwe partner
          </Button>
        }
      >
        Partners
      </PageTitle>
      <ListView<Partner>
        items={partners.data}
        isLoading={partners.isPending && !partners.error}
        rowKey={(p) => p.id}
        searchText={(p) => `${p.id} ${p.name} ${p.city}`}
        emptyMessage="Geen partners gevonden."
        columns={[
          { header: 'ID', render: (p) => p.id },
          { header: 'Naam', render: (p) => p.name },
          { header: 'Plaats', render: (p) => p.city },
          { header: 'Land', render: (p) => countryName.get(p.country) ?? p.country },
          { header: 'Datasets', render: (p) => p.datasetCount },
        ]}
        actions={(p) => (
          <>
            {action(`Datasets van ${p.id}`, `/partners/${p.id}/datasets`, <IconDatabase size={18} />)}
            {action(`Contactpersonen van ${p.id}`, `/partners/${p.id}/contacts`, <IconUsers size={18} />)}
            {action(`Bewerk ${p.id}`, `/partners/${p.id}/edit`, <IconPencil size={18} />)}
            {action(`Blacklist van ${p.id}`, `/partners/${p.id}/blacklist`, <IconBan size={18} />)}
            <Tooltip label={`Verwijder ${p.id}`}>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Verwijder ${p.id}`}
                onClick={() =>
                  confirmAction({
                    title: 'Partner verwijderen?',
                    message: deleteMessage(p),
                    onConfirm: () => remove.mutate(p),
                  })
                }
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
          </>
        )}
      />
    </>
  );
}
