// The least an HTTP API that stores partner records can do, as a baseline for bench/partner-api.ts:
// Fastify (the app's framework, its JSON body parser) and one pg pool, no key, no mapping, no
// addresses, no validation beyond the shape. Each call is one statement on one bare table with a
// primary key (bench_http_floor, made by the benchmark), committed by itself:
// - POST /batch/:client: an array of records, upserted in one statement → {modified, inserted};
// - POST /single/:client: one record, inserted unless present → 200 {message, id} or 409;
// - GET /single/:client/:email: the record's raw values → 200 or 404;
// - PUT /single/:client/:email: replaces its values → 200 or 404.
// Whatever the partner API does beyond this is the app's; this much any implementation pays on the
// machine it runs on. Run by the benchmark as a child process: DATABASE_URL, PORT.
import Fastify from 'fastify';
import pg from 'pg';

type Fields = Record<string, unknown>;

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });

/** A record's raw values as text (the fields in their order) and two of them as attributes. */
function row(r: Fields) {
  return {
    email: String(r.email),
    raw: Object.values(r).map(String),
    attrs: { firstName: r.voornaam, city: r.plaats },
  };
}

app.post<{ Params: { client: string }; Body: Fields[] }>('/batch/:client', async (req, reply) => {
  if (!Array.isArray(req.body)) return reply.code(400).send({ message: 'array expected' });
  const { rows } = await pool.query<{ inserted: number; modified: number }>(
    `WITH w AS (INSERT INTO bench_http_floor AS f
       SELECT $1, x.email, x.raw, x.attrs
       FROM (SELECT DISTINCT ON (email) * FROM jsonb_to_recordset($2::jsonb) AS x(email text, raw text[], attrs jsonb)) x
       ON CONFLICT (client, email) DO UPDATE SET raw = excluded.raw, attrs = excluded.attrs
       RETURNING (f.xmax = 0) AS ins)
     SELECT count(*) FILTER (WHERE ins)::int AS inserted, count(*) FILTER (WHERE NOT ins)::int AS modified FROM w`,
    [Number(req.params.client), JSON.stringify(req.body.map(row))],
  );
  return rows[0];
});

app.post<{ Params: { client: string }; Body: Fields }>('/single/:client', async (req, reply) => {
  const r = row(req.body);
  const { rowCount } = await pool.query({
    name: 'floor-insert',
    text: 'INSERT INTO bench_http_floor VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING',
    values: [Number(req.params.client), r.email, r.raw, r.attrs],
  });
  if (!rowCount) return reply.code(409).send({ message: 'exists' });
  return { message: 'created', id: r.email };
});

app.get<{ Params: { client: string; email: string } }>('/single/:client/:email', async (req, reply) => {
  const { rows } = await pool.query({
    name: 'floor-get',
    text: 'SELECT email, raw FROM bench_http_floor WHERE client = $1 AND email = $2',
    values: [Number(req.params.client), req.params.email],
  });
  if (!rows[0]) return reply.code(404).send({ message: 'not found' });
  return rows[0];
});

app.put<{ Params: { client: string; email: string }; Body: Fields }>(
  '/single/:client/:email',
  async (req, reply) => {
    const r = row({ email: req.params.email, ...req.body });
    const { rowCount } = await pool.query({
      name: 'floor-put',
      text: 'UPDATE bench_http_floor SET raw = $3, attrs = $4 WHERE client = $1 AND email = $2',
      values: [Number(req.params.client), r.email, r.raw, r.attrs],
    });
    if (!rowCount) return reply.code(404).send({ message: 'not found' });
    return { message: 'updated', id: r.email };
  },
);

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => pool.end().then(() => process.exit(0)));
});
