import { type APIRequestContext, type APIResponse, expect } from '@playwright/test';

/** Expects the response (or its promise) to answer 200 and returns its JSON body. */
export async function ok<T = { _id: string }>(res: APIResponse | Promise<APIResponse>): Promise<T> {
  const r = await res;
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()) as T;
}

/** Waits (up to a minute) until task `id` has ended and expects it done, showing its error if not. */
export async function waitForTask(request: APIRequestContext, id: string): Promise<void> {
  await expect
    .poll(async () => (await (await request.get(`/api/tasks/${id}`)).json()).state, { timeout: 60_000 })
    .toMatch(/^(done|failed)$/);
  const task = await (await request.get(`/api/tasks/${id}`)).json();
  expect(task.state, task.error).toBe('done');
}

/** Imports `csv` as the file of dataset `name` of partner `partnerId` and waits until the import is done. */
export async function importCsv(
  request: APIRequestContext,
  partnerId: string,
  name: string,
  csv: string,
  fileName = 'adressen.csv',
): Promise<void> {
  const upload = await ok<{ task: { _id: string } }>(
    request.post(`/api/import/${partnerId}/${encodeURIComponent(name)}`, {
      multipart: { file: { name: fileName, mimeType: 'text/csv', buffer: Buffer.from(csv) } },
    }),
  );
  await waitForTask(request, upload.task._id);
}
