import PDFDocument from 'pdfkit';
import { businessDay } from '../../../common/calendar-day';
import { countryName, issuerBlock } from '../../../common/issuer';
import {
  formatDay,
  formatEuroCents,
  formatMonth,
  formatRate,
  type StatementDetail,
  StatementLabels,
  StatementMessages,
} from '../../../common/statements';
import { winAnsiStatement, winAnsiText } from './statement-pdf-text';

// A statement as an A4 PDF (docs/decisions.md, Partner statements), made with pdfkit: the issuer
// (the broker, for the partner: a self-billed invoice; its name, address, VAT and KvK number as the
// statement holds them, frozen at the issue), the partner's address and bank and VAT details,
// number, date and period, the lines (a new page with the header repeated when a page is full),
// subtotal, VAT or 'btw verlegd', and total. Dutch formats: € 1.234,56 and DD-MM-YYYY.

const MARGIN = 50;
const COLUMNS = [
  { label: StatementLabels.campaign, width: 95 },
  { label: StatementLabels.mailing, width: 100 },
  { label: StatementLabels.plannedSend, width: 62 },
  { label: StatementLabels.dataset, width: 80 },
  { label: StatementLabels.addresses, width: 50, right: true },
  { label: 'Per adres', width: 48, right: true },
  { label: StatementLabels.amount, width: 60, right: true },
];

function lineCells(l: StatementDetail['lines'][number]): string[] {
  const campaign =
    l.kind === 'correction'
      ? `${StatementMessages.correctionOf(formatMonth(l.correctsMonth ?? ''))}: ${l.campaignName}`
      : l.campaignName;
  return [
    campaign,
    l.mailingName,
    formatDay(l.plannedSend),
    l.datasetName,
    l.addresses.toLocaleString('nl-NL'),
    l.rate === null ? '-' : formatRate(l.rate),
    formatEuroCents(l.amountCents),
  ];
}

/** The PDF of a statement, as one buffer. */
export function statementPdf(statement: StatementDetail): Promise<Buffer> {
  const s = winAnsiStatement(statement);
  // Without a name and address the block says the details are not set (issuerBlock).
  const issuer = issuerBlock(statement.issuer, StatementMessages.brokerMissing).map(winAnsiText);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: s.number ?? StatementMessages.proposed },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - 2 * MARGIN;
  doc
    .font('Helvetica-Bold')
    .fontSize(16)
    .text(`Afrekening ${s.number ?? `(${StatementMessages.proposed})`}`);
  doc.font('Helvetica').fontSize(9).text(StatementMessages.selfBilling);
  doc.moveDown();

  const top = doc.y;
  doc.font('Helvetica-Bold').fontSize(10).text('Leverancier', MARGIN, top);
  doc.font('Helvetica').fontSize(9);
  const p = s.partner;
  for (const t of [
    p.name,
    p.address,
    `${p.postalCode} ${p.city}`.trim(),
    p.country && countryName(p.country),
  ])
    if (t) doc.text(t);
  doc.text(`${StatementLabels.iban}: ${p.iban || '-'}`);
  doc.text(`${StatementLabels.vatNumber}: ${p.vatNumber || '-'}`);
  doc.text(`${StatementLabels.debtorNumber}: ${p.debtorNumber || '-'}`);
  const leftEnd = doc.y;

  const right = MARGIN + width / 2 + 20;
  doc.font('Helvetica-Bold').fontSize(10).text('Afnemer (uitgereikt door)', right, top);
  doc.font('Helvetica').fontSize(9);
  for (const t of issuer) doc.text(t, right);
  doc.moveDown(0.5);
  doc.text(`${StatementLabels.number}: ${s.number ?? StatementMessages.proposed}`, right);
  doc.text(`${StatementLabels.date}: ${s.issuedAt ? formatDay(businessDay(s.issuedAt)) : '-'}`, right);
  doc.text(`${StatementLabels.period}: ${formatMonth(s.month)}`, right);
  if (s.datasetName) doc.text(`${StatementLabels.dataset}: ${s.datasetName}`, right);
  doc.text(`${StatementLabels.vatCode}: ${p.vatCode || '-'}`, right);

  doc.y = Math.max(leftEnd, doc.y) + 20;
  const header = () => {
    doc.font('Helvetica-Bold').fontSize(8);
    row(COLUMNS.map((c) => c.label));
    doc.font('Helvetica').fontSize(8);
  };
  const row = (cells: string[]) => {
    const y = doc.y;
    let x = MARGIN;
    let bottom = y;
    cells.forEach((cell, i) => {
      const c = COLUMNS[i];
      doc.text(cell, x, y, { width: c.width - 4, align: c.right ? 'right' : 'left' });
      bottom = Math.max(bottom, doc.y);
      x += c.width;
    });
    doc.x = MARGIN;
    doc.y = bottom + 3;
  };
  // A row (its cells wrapped in their columns) starts a new page when it does not fit whole.
  const rowHeight = (cells: string[]) =>
    Math.max(...cells.map((cell, i) => doc.heightOfString(cell, { width: COLUMNS[i].width - 4 })));
  header();
  for (const l of s.lines) {
    const cells = lineCells(l);
    if (doc.y + rowHeight(cells) > doc.page.height - MARGIN) {
      doc.addPage();
      header();
    }
    row(cells);
  }
  if (s.missingCommission > 0) {
    doc.moveDown(0.5).text(`-: ${StatementMessages.noCommission} (${formatEuroCents(0)})`, MARGIN);
  }

  if (doc.y > doc.page.height - MARGIN - 90) doc.addPage();
  doc.moveDown();
  const totalsRow = (label: string, value: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
    doc.text(label, MARGIN + width - 260, y, { width: 150 });
    doc.text(value, MARGIN + width - 110, y, { width: 110, align: 'right' });
    doc.x = MARGIN;
  };
  totalsRow(StatementLabels.subtotal, formatEuroCents(s.amountCents));
  const vatLabel = s.reverseCharge
    ? StatementMessages.reverseCharge
    : `${StatementLabels.vat} ${p.vatPercentage === null ? 0 : String(p.vatPercentage).replace('.', ',')}%`;
  totalsRow(vatLabel, formatEuroCents(s.vatCents));
  totalsRow(StatementLabels.total, formatEuroCents(s.totalCents), true);
  doc.moveDown(2).font('Helvetica').fontSize(9);
  doc.text(StatementMessages.selfBilling, MARGIN);
  if (s.reverseCharge)
    doc.text(`${StatementMessages.reverseCharge}: de btw wordt verlegd naar de afnemer.`, MARGIN);
  doc.end();
  return done;
}
