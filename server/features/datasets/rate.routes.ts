import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import {
  type Commission,
  CommissionCreateSchema,
  CommissionSchema,
  CommissionUpdateSchema,
  IsoDateSchema,
  type Participation,
  ParticipationCreateSchema,
  ParticipationSchema,
  ParticipationUpdateSchema,
  RATE_TEXTS,
  type RateType,
} from '../../../common/datasets';
import type { AppContext } from '../../context';
import { DatasetParams } from './dataset.routes';
import { presentCommission, presentParticipation, type RateRow } from './rate.queries';
import { createRate, removeRate, saveRate } from './rate.service';

const RangeParams = DatasetParams.extend({ start: IsoDateSchema, end: IsoDateSchema });

type RateOut = Commission | Participation;

interface RateRouteSpec<Create, Update> {
  type: RateType;
  create: z.ZodType<Create>;
  update: z.ZodType<Update>;
  out: z.ZodType<RateOut>;
  valueOf: (body: Create | Update) => number;
  present: (row: RateRow) => RateOut;
}

/**
 * POST /datasets/{p}/{d}/{type} and PUT, DELETE /datasets/{p}/{d}/{type}/{start}/{end} of one
 * type. The type is a fixed path segment, so other routes under a dataset are never caught.
 */
function mountRate<
  Create extends { start: string; end: string },
  Update extends { start?: string; end: string },
>(ctx: AppContext, spec: RateRouteSpec<Create, Update>): FastifyPluginAsyncZod {
  const { type } = spec;
  return async (app) => {
    app.post(
      `/datasets/:partnerId/:datasetId/${type}`,
      { schema: { params: DatasetParams, body: spec.create, response: { 200: spec.out } } },
      async (request) => {
        const { partnerId, datasetId } = request.params;
        const body = request.body as Create;
        const row = await createRate(
          ctx.db,
          type,
          { partnerId, datasetId },
          {
            start: body.start,
            end: body.end,
            value: spec.valueOf(body),
          },
        );
        return spec.present(row);
      },
    );

    app.put(
      `/datasets/:partnerId/:datasetId/${type}/:start/:end`,
      { schema: { params: RangeParams, body: spec.update, response: { 200: spec.out } } },
      async (request) => {
        const body = request.body as Update;
        const row = await saveRate(ctx.db, type, request.params, {
          start: body.start,
          end: body.end,
          value: spec.valueOf(body),
        });
        return spec.present(row);
      },
    );

    app.delete(
      `/datasets/:partnerId/:datasetId/${type}/:start/:end`,
      { schema: { params: RangeParams, response: { 200: MessageSchema } } },
      async (request) => {
        await removeRate(ctx.db, type, request.params);
        return { message: RATE_TEXTS[type].deleted };
      },
    );
  };
}

/** Commission and participation entries of a dataset (spec 000 §7), each addressed by start and end. */
export function rateRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const commission = mountRate(ctx, {
    type: 'commission',
    create: CommissionCreateSchema,
    update: CommissionUpdateSchema,
    out: CommissionSchema,
    valueOf: (body) => body.amount,
    present: presentCommission,
  });
  const participation = mountRate(ctx, {
    type: 'participation',
    create: ParticipationCreateSchema,
    update: ParticipationUpdateSchema,
    out: ParticipationSchema,
    valueOf: (body) => body.factor,
    present: presentParticipation,
  });
  return async (app) => {
    await app.register(commission);
    await app.register(participation);
  };
}
