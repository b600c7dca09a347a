import { Stack } from '@mantine/core';
import { BLACKLIST_COLUMNS } from '../../../common/blacklists';
import { PageTitle } from '../../components/page-title';
import { BlacklistUploadForm } from './blacklist-upload-form';

/** /blacklist/upload: the three blacklist uploads, e-mail addresses, domains and partner datasets (spec 001 §2). */
export function BlacklistUploadPage() {
  return (
    <>
      <PageTitle>Blacklist uploaden</PageTitle>
      <Stack maw={900}>
        <BlacklistUploadForm
          kind="email"
          title="E-mailadressen"
          columns={[{ field: 'emailColumn', label: 'E-mailkolom', defaultName: BLACKLIST_COLUMNS.email }]}
        />
        <BlacklistUploadForm
          kind="domain"
          title="Domeinen"
          columns={[{ field: 'domainColumn', label: 'Domeinkolom', defaultName: BLACKLIST_COLUMNS.domain }]}
        />
        <BlacklistUploadForm
          kind="partner"
          title="Partnerbestanden"
          columns={[
            { field: 'emailColumn', label: 'E-mailkolom', defaultName: BLACKLIST_COLUMNS.email },
            { field: 'partnerColumn', label: 'Partnerkolom', defaultName: BLACKLIST_COLUMNS.partner },
            { field: 'datasetColumn', label: 'Bestandskolom', defaultName: BLACKLIST_COLUMNS.dataset },
          ]}
        />
      </Stack>
    </>
  );
}
