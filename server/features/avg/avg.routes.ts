import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type AvgLookup,
  AvgLookupCsvQuerySchema,
  AvgLookupQuerySchema,
  AvgLookupSchema,
  AvgMessages,
} from '../../../common/avg';
import { businessToday } from '../../../common/calendar-day';
import { CSV_DELIMITERS, type CsvFormat } from '../../../common/csv-download';
import type { AppContext } from '../../context';
import { actorOf, recordAudit } from '../audit/audit';
import { type CsvBody, sendCsv, UTF8_BOM } from '../uploads/csv-download';
import { csvLine } from '../uploads/csv-output';
import { avgCsvRows, countFacts, lookUpAddress } from './avg.service';

const CSV_HEADER = ['Onderdeel', 'Bron', 'Kenmerk', 'Waarde'];

// The rows are the facts of one address (a few hundred at most), written by the one CSV writer's
// line rule (formulas made text); the generator's value is their number.
async function* avgCsv(rows: string[][], format: CsvFormat): CsvBody {
  const delimiter = CSV_DELIMITERS[format];
  yield Buffer.concat([UTF8_BOM, Buffer.from(rows.map((r) => csvLine(r, delimiter)).join(''), 'utf8')]);
  return rows.length - 1;
}

/**
 * The AVG (GDPR) art. 15 look-up for staff and administrators: GET /avg/lookup (on screen) and the
 * same as downloads, GET /avg/lookup.json and GET /avg/lookup.csv. Every look-up and download is
 * recorded in the audit log by the address id (never the e-mail or a value held).
 */
export function avgRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  async function lookUp(
    request: FastifyRequest,
    email: string,
    kind: 'avg-lookup' | 'avg-export',
    format?: string,
  ) {
    const lookup = await lookUpAddress(ctx.db, ctx.columnKeys(), email);
    await recordAudit(ctx.db, {
      kind,
      ...actorOf(request),
      subject: lookup.address?.id ?? AvgMessages.notFoundSubject,
      rows: countFacts(lookup),
      ...(format ? { details: { format } } : {}),
    });
    return lookup;
  }

  const fileName = (ext: string) => `avg-${businessToday()}.${ext}`;

  return async (app) => {
    app.get(
      '/avg/lookup',
      { schema: { querystring: AvgLookupQuerySchema, response: { 200: AvgLookupSchema } } },
      async (request) => lookUp(request, request.query.email, 'avg-lookup'),
    );

    app.get('/avg/lookup.json', { schema: { querystring: AvgLookupQuerySchema } }, async (request, reply) => {
      const lookup: AvgLookup = await lookUp(request, request.query.email, 'avg-export', 'json');
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName('json')}"`)
        .send(JSON.stringify(lookup, null, 2));
    });

    app.get(
      '/avg/lookup.csv',
      { config: { csvDownload: true }, schema: { querystring: AvgLookupCsvQuerySchema } },
      async (request, reply) => {
        const { email, format } = request.query;
        const lookup = await lookUp(request, email, 'avg-export', format);
        return sendCsv(reply, fileName('csv'), avgCsv([CSV_HEADER, ...avgCsvRows(lookup)], format));
      },
    );
  };
}
