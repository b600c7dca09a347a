import { Loader, Select, SimpleGrid } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Campaign } from '../../../common/campaigns';
import { TEMPLATE_DESCRIPTION_MAX } from '../../../common/constants';
import type { Mailing } from '../../../common/mailings';
import type { QueryNode } from '../../../common/query-tree';
import { SelectionMessages } from '../../../common/selections';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import { listPreQueries, preQueriesKey, selectionPaths } from './api';
import { type BuilderDraft, setDraft } from './builder-store';
import { editableRoot, fromTemplate, type TemplateSource } from './query-editor-state';

const EMPTY_TEMPLATE = 'empty';

/** The label of a predefined selection in the template picker, its description cut to 65 characters (spec 001 §9). */
export function templateLabel(campaign: string, mailing: string, description: string): string {
  const text = description.trim() || '(geen omschrijving)';
  return `${campaign} / ${mailing}: ${text.slice(0, TEMPLATE_DESCRIPTION_MAX)}`;
}

/**
 * The campaign picker (searchable), the mailing picker (drafts only) and the template picker
 * ('Lege selectie' plus the predefined selections); campaign and mailing go into the URL.
 */
export function BuilderPickers(props: {
  draft: BuilderDraft;
  campaigns: Campaign[] | undefined;
  mailings: Mailing[] | undefined;
  /** The campaign list is being read (the picker shows a spinner meanwhile). */
  isLoadingCampaigns?: boolean;
  /** The campaign's mailings are being read (a failed read stops the spinner). */
  isLoadingMailings?: boolean;
  disabled: boolean;
}) {
  const { draft } = props;
  const navigate = useNavigate();
  const [template, setTemplate] = useState<string | null>(null);
  const preQueries = useQuery({ queryKey: preQueriesKey, queryFn: listPreQueries });
  useFailedQueryAlert(preQueries.error, SelectionMessages.fetchPreQueriesFailed);

  const templates = new Map<
    string,
    { query: unknown; description: string; label: string; source: TemplateSource }
  >();
  for (const c of preQueries.data ?? []) {
    for (const m of c.mailings) {
      for (const s of m.selections) {
        templates.set(s._id, {
          ...s,
          label: templateLabel(c.name, m.name, s.description),
          source: { selection: s._id, campaign: c._id, mailing: m._id },
        });
      }
    }
  }
  const applyTemplate = (value: string | null) => {
    setTemplate(value);
    const template = value && value !== EMPTY_TEMPLATE ? templates.get(value) : null;
    setDraft((d) => ({
      ...d,
      query: editableRoot(template ? fromTemplate(template.query as QueryNode, template.source) : null),
      description: template ? template.description : d.description,
      revision: d.revision + 1,
    }));
  };
  const drafts = (props.mailings ?? []).filter((m) => m.state === 'draft');
  // While a list is read its picker shows a spinner and says so, not that nothing was found.
  const loading = (isLoading: boolean | undefined) =>
    isLoading
      ? { rightSection: <Loader size="xs" aria-label="Laden" />, nothingFoundMessage: 'Laden...' }
      : {};

  return (
    <SimpleGrid cols={{ base: 1, md: 3 }}>
      <Select
        label="Campagne"
        placeholder="Kies een campagne"
        searchable
        nothingFoundMessage="Geen campagnes gevonden"
        data={(props.campaigns ?? []).map((c) => ({ value: c._id, label: c.name }))}
        value={draft.campaign}
        onChange={(v) => navigate(selectionPaths.builder(v))}
        disabled={props.disabled}
        {...loading(props.isLoadingCampaigns)}
      />
      <Select
        label="Verzending"
        placeholder={draft.campaign ? 'Kies een verzending in Concept' : 'Kies eerst een campagne'}
        searchable
        nothingFoundMessage="Geen verzendingen in Concept"
        data={drafts.map((m) => ({ value: m._id, label: m.name }))}
        value={drafts.some((m) => m._id === draft.mailing) ? draft.mailing : null}
        onChange={(v) => navigate(selectionPaths.builder(draft.campaign, v))}
        disabled={props.disabled || !draft.campaign}
        {...loading(props.isLoadingMailings)}
      />
      <Select
        label="Sjabloon"
        placeholder="Kies een sjabloon"
        searchable
        data={[
          { value: EMPTY_TEMPLATE, label: 'Lege selectie' },
          ...[...templates.entries()].map(([value, t]) => ({ value, label: t.label })),
        ]}
        value={template}
        onChange={applyTemplate}
        disabled={props.disabled}
        {...loading(preQueries.isLoading)}
      />
    </SimpleGrid>
  );
}
