// Reads a PDF the way a viewer does (pdf.js, through unpdf's bundled build: pdfjs-dist itself pulls
// in a native canvas package whose per-platform builds break `npm ci` here): its page count and each
// page's text, lines joined with newlines, so tests assert what a reader of the report sees.
import { getDocumentProxy } from 'unpdf';

export interface PdfText {
  pages: number;
  /** Every page's text, in content order. */
  text: string;
  info: Record<string, unknown>;
}

export async function readPdf(bytes: Uint8Array): Promise<PdfText> {
  const document = await getDocumentProxy(new Uint8Array(bytes), { useSystemFonts: false, disableFontFace: true, verbosity: 0 });
  try {
    let text = '';
    for (let number = 1; number <= document.numPages; number++) {
      const content = await (await document.getPage(number)).getTextContent();
      for (const item of content.items) {
        if ('str' in item) text += item.str + (item.hasEOL ? '\n' : '');
      }
      text += '\n';
    }
    const { info } = await document.getMetadata();
    return { pages: document.numPages, text, info: info as Record<string, unknown> };
  } finally {
    await document.cleanup();
  }
}
