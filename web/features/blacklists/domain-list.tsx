import { ActionIcon } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type BlacklistDomain, BlacklistMessages } from '../../../common/blacklists';
import { confirmAction } from '../../components/confirm';
import { ListView } from '../../components/list-view';
import { PageTitle } from '../../components/page-title';
import { showDanger, showSuccess } from '../../lib/alerts';
import { formatDate } from '../../lib/dates';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { blacklistDomainsKey, deleteBlacklistDomain, listBlacklistDomains } from './api';

/** /blacklist/domain: the blacklisted domains, paginated, each deleted after a confirmation (spec 001 §2). */
export function BlacklistDomainListPage() {
  const client = useQueryClient();
  const domains = useQuery({ queryKey: blacklistDomainsKey, queryFn: listBlacklistDomains });
  useFailedQueryAlert(domains.error, BlacklistMessages.loadFailed);
  const remove = useMutation({
    mutationFn: deleteBlacklistDomain,
    onSuccess: (_answer, domain) => {
      showSuccess(BlacklistMessages.domainDeleted, domain);
      void client.invalidateQueries({ queryKey: blacklistDomainsKey });
    },
    onError: (err) => showDanger(BlacklistMessages.deleteFailed, err),
  });

  return (
    <>
      <PageTitle>Domein blacklist</PageTitle>
      <ListView<BlacklistDomain>
        items={domains.data}
        isLoading={domains.isPending && !domains.error}
        rowKey={(d) => d.domain}
        searchText={(d) => d.domain}
        emptyMessage="Geen domeinen gevonden."
        columns={[
          { header: 'Domein', render: (d) => d.domain },
          { header: 'Toegevoegd', render: (d) => formatDate(d.createdAt) },
        ]}
        actions={(d) => (
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Verwijder ${d.domain}`}
            onClick={() =>
              confirmAction({
                title: BlacklistMessages.deleteDomainTitle,
                message: BlacklistMessages.deleteDomain(d.domain),
                onConfirm: () => remove.mutate(d.domain),
              })
            }
          >
            <IconTrash size={18} />
          </ActionIcon>
        )}
      />
    </>
  );
}
