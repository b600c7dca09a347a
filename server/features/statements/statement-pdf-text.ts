import type { StatementDetail } from '../../../common/statements';

// The PDF's fonts are the standard Helvetica of every PDF reader, which hold the characters of
// WinAnsi (Windows-1252: Latin-1 with €, Œ, Š, ‘’ “” and dashes) and nothing else; pdfkit writes
// any other character as a wrong glyph. So a text is fitted to WinAnsi first: 'Łódź' becomes
// 'Lódz' (ź without its mark; ó is WinAnsi), what has no such letter '?'.

const CP1252_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
/** Letters whose base letter NFKD does not give. */
const BASE_LETTERS: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ŧ: 'T',
  ŧ: 't',
  Ŋ: 'N',
  ŋ: 'n',
  ĸ: 'k',
};

function isWinAnsi(ch: string): boolean {
  const c = ch.codePointAt(0) ?? 0;
  return (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff) || c === 0x0a || CP1252_EXTRA.includes(ch);
}

/** A text as the PDF's standard fonts can show it: WinAnsi kept, other letters as their base letter, the rest '?'. */
export function winAnsiText(text: string): string {
  let out = '';
  for (const ch of text) {
    if (isWinAnsi(ch)) out += ch;
    else if (BASE_LETTERS[ch]) out += BASE_LETTERS[ch];
    else {
      const base = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      out += base !== '' && [...base].every(isWinAnsi) ? base : '?';
    }
  }
  return out;
}

/** A statement with every text it shows fitted to WinAnsi (winAnsiText); numbers untouched. */
export function winAnsiStatement(s: StatementDetail): StatementDetail {
  const partner = Object.fromEntries(
    Object.entries(s.partner).map(([k, v]) => [k, typeof v === 'string' ? winAnsiText(v) : v]),
  ) as StatementDetail['partner'];
  return {
    ...s,
    partnerName: winAnsiText(s.partnerName),
    datasetName: s.datasetName === null ? null : winAnsiText(s.datasetName),
    partner,
    lines: s.lines.map((l) => ({
      ...l,
      campaignName: winAnsiText(l.campaignName),
      mailingName: winAnsiText(l.mailingName),
      datasetName: winAnsiText(l.datasetName),
    })),
  };
}
