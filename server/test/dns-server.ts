import dns2 from 'dns2';

const { Packet } = dns2;

/**
 * A DNS server on loopback for the DNS check's tests, journeys and bench (dns2, UDP). It answers
 * by the first label of the name asked:
 * - `mx-*`: an MX record; `a-*`: no MX but an A record; `aaaa-*`: no MX but an AAAA record;
 * - `nodata-*`: the name exists without MX, A or AAAA (NOERROR, no answers);
 * - `nullmx-*`: the null MX of RFC 7505 ('.', preference 0);
 * - `servfail-*`: SERVFAIL; `timeout-*`: never answers;
 * - `flaky-*`: SERVFAIL the first time a name is asked for MX, then an MX record;
 * - `slow-*`: an MX record after 20 ms (the server counts how many such answers wait at once);
 * - anything else: NXDOMAIN.
 * Returns its address as `host:port` (for DNS_SERVER), how many queries it received, the most
 * answers waiting at once, the last name asked, and close().
 */
export async function startTestDnsServer(): Promise<{
  address: string;
  queries: () => number;
  maxInFlight: () => number;
  lastQuery: () => string;
  close: () => Promise<void>;
}> {
  const asked = new Set<string>();
  let queries = 0;
  let inFlight = 0;
  let lastQuery = '';
  let maxInFlight = 0;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      queries++;
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question.name.toLowerCase();
      lastQuery = name;
      const kind = name.split('.')[0].split('-')[0];
      const type = question.type;
      const answer = (data: Record<string, unknown>) =>
        response.answers.push({ name: question.name, class: Packet.CLASS.IN, ttl: 60, ...data } as never);
      if (kind === 'timeout') return;
      if (kind === 'slow') {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        answer({ type: Packet.TYPE.MX, exchange: `mail.${name}`, priority: 10 });
        setTimeout(() => {
          inFlight--;
          send(response);
        }, 20);
        return;
      }
      if (kind === 'servfail' || (kind === 'flaky' && type === Packet.TYPE.MX && !asked.has(name))) {
        asked.add(name);
        response.header.rcode = 2;
      } else if (kind === 'mx' || kind === 'flaky') {
        if (type === Packet.TYPE.MX) answer({ type: Packet.TYPE.MX, exchange: `mail.${name}`, priority: 10 });
      } else if (kind === 'nullmx') {
        if (type === Packet.TYPE.MX) answer({ type: Packet.TYPE.MX, exchange: '', priority: 0 });
      } else if (kind === 'a') {
        if (type === Packet.TYPE.A) answer({ type: Packet.TYPE.A, address: '192.0.2.1' });
      } else if (kind === 'aaaa') {
        if (type === Packet.TYPE.AAAA) answer({ type: Packet.TYPE.AAAA, address: '2001:db8::1' });
      } else if (kind !== 'nodata') {
        response.header.rcode = 3;
      }
      send(response);
    },
  });
  server.on('error', () => {});
  await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  const udp = server.addresses().udp;
  if (!udp) throw new Error('the test DNS server did not start');
  const { port } = udp;
  return {
    address: `127.0.0.1:${port}`,
    queries: () => queries,
    maxInFlight: () => maxInFlight,
    lastQuery: () => lastQuery,
    close: () => server.close(),
  };
}
