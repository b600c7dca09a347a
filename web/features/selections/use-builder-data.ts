import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { CampaignDaysFieldSchema } from '../../../common/campaigns';
import { CAMPAIGN_DAYS_DEFAULT } from '../../../common/constants';
import { SelectionMessages } from '../../../common/selections';
import { useFailedQueryAlert } from '../../lib/use-failed-query-alert';
import {
  builderCampaignKey,
  builderCampaignsKey,
  builderMailingsKey,
  getCampaign,
  getSelection,
  listMailings,
  listRecentCampaigns,
  selectionKey,
  selectionPaths,
} from './api';
import { type BuilderDraft, getDraft, loadSelection, newDraft, setDraft } from './builder-store';

// spec 001 §9: the campaign-days refetch delay.
const CAMPAIGN_DAYS_DELAY_MS = 500;

/**
 * What the builder reads for the URL's campaign, mailing and selection, and the draft kept in
 * step with that URL: a selection in the URL is loaded; without one the query on screen stays and
 * only the campaign and mailing change (a stored selection is left for a new draft); a selection
 * created by a save goes into the URL.
 */
export function useBuilderData(c: string | null, m: string | null, s: string | null, draft: BuilderDraft) {
  const navigate = useNavigate();
  // spec 001 §5/§9: the campaigns of the last N days (typed, default 30), refetched 500 ms after
  // typing. Text that is not a whole number keeps the last good number and says why.
  const [daysText, setDaysText] = useState(String(CAMPAIGN_DAYS_DEFAULT));
  const [typedDays] = useDebouncedValue(daysText, CAMPAIGN_DAYS_DELAY_MS);
  const parsedDays = CampaignDaysFieldSchema.safeParse(typedDays);
  const [days, setDays] = useState(CAMPAIGN_DAYS_DEFAULT);
  useEffect(() => {
    if (parsedDays.success) setDays(parsedDays.data);
  }, [parsedDays.success, parsedDays.data]);
  const daysError = parsedDays.success ? null : (parsedDays.error.issues[0]?.message ?? null);
  const campaigns = useQuery({
    queryKey: builderCampaignsKey(days),
    queryFn: () => listRecentCampaigns(days),
    placeholderData: keepPreviousData,
  });
  useFailedQueryAlert(campaigns.error, SelectionMessages.fetchCampaignsFailed);
  // The campaign of the URL is offered even when it started longer ago than the picker looks back.
  const campaign = useQuery({
    queryKey: builderCampaignKey(c ?? ''),
    queryFn: () => getCampaign(c ?? ''),
    enabled: Boolean(c),
  });
  useFailedQueryAlert(campaign.error, SelectionMessages.fetchCampaignFailed);
  const campaignOptions = useMemo(() => {
    const list = campaigns.data ?? [];
    return campaign.data && !list.some((x) => x._id === campaign.data._id) ? [campaign.data, ...list] : list;
  }, [campaigns.data, campaign.data]);
  const mailings = useQuery({
    queryKey: builderMailingsKey(c ?? ''),
    queryFn: () => listMailings(c ?? ''),
    enabled: Boolean(c),
  });
  useFailedQueryAlert(mailings.error, SelectionMessages.fetchMailingFailed);
  const mailing = mailings.data?.find((x) => x._id === m);

  const isLoaded = s !== null && draft.selection === s && draft.campaign === c && draft.mailing === m;
  const stored = useQuery({
    queryKey: selectionKey(c ?? '', m ?? '', s ?? ''),
    queryFn: () => getSelection(c ?? '', m ?? '', s ?? ''),
    enabled: Boolean(c && m && s) && !isLoaded,
    staleTime: 0,
    gcTime: 0,
  });
  useFailedQueryAlert(stored.error, SelectionMessages.failed, selectionPaths.builder(c, m));
  useEffect(() => {
    if (stored.data && c && m && !isLoaded) loadSelection(c, m, stored.data);
  }, [stored.data, c, m, isLoaded]);
  useEffect(() => {
    if (s) return;
    const d = getDraft();
    if (d.selection) setDraft(() => newDraft(c, m));
    else if (d.campaign !== c || d.mailing !== m) {
      setDraft((x) => ({ ...x, campaign: c, mailing: m, results: null, saveState: 'NONE' }));
    }
  }, [c, m, s]);
  // A selection created by a save goes into the URL.
  // The store, not this render's copy: the effect above may just have started a new draft.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a newly created selection is what triggers it.
  useEffect(() => {
    const d = getDraft();
    if (d.selection && !s && d.campaign === c && d.mailing === m) {
      // The search stays: a line drawer open meanwhile stays open.
      navigate(
        { pathname: selectionPaths.builder(c, m, d.selection), search: window.location.search },
        { replace: true },
      );
    }
  }, [draft.selection, c, m, s, navigate]);

  // A new number of days is read after the pause: the picker shows the list is being read again.
  const isLoadingCampaigns =
    campaigns.isFetching || daysText !== typedDays || (parsedDays.success && parsedDays.data !== days);
  return {
    daysText,
    setDaysText,
    daysError,
    campaignOptions,
    isLoadingCampaigns,
    mailings,
    mailing,
    isLoaded,
  };
}
