// Reads a PDF the way a viewer does (pdfjs-dist): its page count and each page's text, lines
// joined with newlines, so tests assert what a reader of the report sees.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfText {
  pages: number;
  /** Every page's text, in content order. */
  text: string;
  info: Record<string, unknown>;
}

export async function readPdf(bytes: Uint8Array): Promise<PdfText> {
  const task = getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, disableFontFace: true, verbosity: 0 });
  const document = await task.promise;
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
    await task.destroy();
  }
}
