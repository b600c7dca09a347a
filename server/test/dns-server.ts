import dns2 from 'dns2';

const { Packet } = dns2;

/**
 * How the test DNS server answers as a whole: `working` by the names below; `silent` never answers
 * (a dead resolver: every query times out); `servfail` answers SERVFAIL to everything; `nxdomain`
 * says NXDOMAIN to everything, the root zone included (a resolver cut off from the internet that
 * still answers).
 */
export type TestDnsMode = 'working' | 'silent' | 'servfail' | 'nxdomain';

/**
 * A DNS server on loopback for the DNS check's tests, journeys and bench (dns2, UDP). Working (the
 * mode it starts in unless `mode` says otherwise, changed with setMode), it answers the root zone's
 * NS (the resolver check) and otherwise by the first label of the name asked:
 * - `mx-*`: an MX record; `a-*`: no MX but an A record; `aaaa-*`: no MX but an AAAA record;
 * - `nodata-*`: the name exists without MX, A or AAAA (NOERROR, no answers);
 * - `nullmx-*`: the null MX of RFC 7505 ('.', preference 0);
 * - `servfail-*`: SERVFAIL; `refused-*`: REFUSED; `timeout-*`: never answers;
 * - `flaky-*`: SERVFAIL the first time a name is asked for MX, then an MX record;
 * - `slow-*`: an MX record after 20 ms (the server counts how many such answers wait at once);
 * - anything else: NXDOMAIN.
 * Returns its address as `host:port` (for DNS_SERVER), how many queries it received, the most
 * answers waiting at once, the last name asked, setMode() and close().
 */
export async function startTestDnsServer(options: { mode?: TestDnsMode } = {}): Promise<{
  address: string;
  queries: () => number;
  maxInFlight: () => number;
  lastQuery: () => string;
  setMode: (mode: TestDnsMode) => void;
  close: () => Promise<void>;
}> {
  let mode: TestDnsMode = options.mode ?? 'working';
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
      if (mode === 'silent' || kind === 'timeout') return;
      if (mode !== 'working') {
        response.header.rcode = mode === 'servfail' ? 2 : 3;
        send(response);
        return;
      }
      if (name === '') {
        if (type === Packet.TYPE.NS) answer({ type: Packet.TYPE.NS, ns: 'a.root-servers.net' });
        send(response);
        return;
      }
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
      } else if (kind === 'refused') {
        response.header.rcode = 5;
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
    setMode: (next) => {
      mode = next;
    },
    close: () => server.close(),
  };
}
