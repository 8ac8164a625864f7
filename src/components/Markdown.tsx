import { Box } from '@mui/material';
import { useMemo } from 'react';
import { renderMarkdown } from '../lib/markdown';

/** An organiser-authored Markdown body, sanitised (see lib/markdown.ts); also the console's preview. */
export function Markdown({ source }: { source: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return (
    <Box
      className="markdown-body"
      sx={{
        overflowWrap: 'anywhere',
        '& a': { color: 'primary.main' },
        '& h1, & h2, & h3': { fontSize: '1.15rem', mt: 2, mb: 1 },
        '& p': { my: 1 },
        '& table': { borderCollapse: 'collapse' },
        '& td, & th': { border: 1, borderColor: 'divider', p: 0.5 },
      }}
      // Sanitised by renderMarkdown (DOMPurify allow-list): raw HTML in the source never executes.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
