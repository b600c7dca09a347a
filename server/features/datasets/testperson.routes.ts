import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MessageSchema } from '../../../common/api-error';
import { TestPersonInputSchema, TestPersonMessages, TestPersonSchema } from '../../../common/datasets';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/http-errors';
import { DatasetParams } from './dataset.routes';
import { requireDataset } from './dataset.service';
import {
  deleteTestPerson,
  getTestPerson,
  insertTestPerson,
  listTestPersons,
  presentTestPerson,
  updateTestPerson,
} from './testperson.queries';

const PersonParams = DatasetParams.extend({ personId: z.string().min(1).max(100) });
const BASE = '/datasets/:partnerId/:datasetId/testpersons';

/** Test persons of a dataset (spec 000 §7): list, create, get, update, delete. */
export function testPersonRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      BASE,
      { schema: { params: DatasetParams, response: { 200: z.array(TestPersonSchema) } } },
      async (request) => {
        const dataset = await requireDataset(ctx.db, request.params.partnerId, request.params.datasetId);
        return (await listTestPersons(ctx.db, dataset.id)).map(presentTestPerson);
      },
    );

    app.post(
      BASE,
      { schema: { params: DatasetParams, body: TestPersonInputSchema, response: { 200: TestPersonSchema } } },
      async (request) => {
        const dataset = await requireDataset(ctx.db, request.params.partnerId, request.params.datasetId);
        return presentTestPerson(await insertTestPerson(ctx.db, dataset.id, request.body));
      },
    );

    app.get(
      `${BASE}/:personId`,
      { schema: { params: PersonParams, response: { 200: TestPersonSchema } } },
      async (request) => {
        const dataset = await requireDataset(ctx.db, request.params.partnerId, request.params.datasetId);
        const row = await getTestPerson(ctx.db, dataset.id, request.params.personId);
        if (!row) throw notFound(TestPersonMessages.notFound);
        return presentTestPerson(row);
      },
    );

    app.put(
      `${BASE}/:personId`,
      { schema: { params: PersonParams, body: TestPersonInputSchema, response: { 200: TestPersonSchema } } },
      async (request) => {
        const dataset = await requireDataset(ctx.db, request.params.partnerId, request.params.datasetId);
        const row = await updateTestPerson(ctx.db, dataset.id, request.params.personId, request.body);
        if (!row) throw notFound(TestPersonMessages.notFound);
        return presentTestPerson(row);
      },
    );

    app.delete(
      `${BASE}/:personId`,
      { schema: { params: PersonParams, response: { 200: MessageSchema } } },
      async (request) => {
        const dataset = await requireDataset(ctx.db, request.params.partnerId, request.params.datasetId);
        if (!(await deleteTestPerson(ctx.db, dataset.id, request.params.personId)))
          throw notFound(TestPersonMessages.notFound);
        return { message: TestPersonMessages.deleted };
      },
    );
  };
}
