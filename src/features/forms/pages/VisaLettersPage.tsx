import { Alert, Box, Button, Link, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import useSWR from 'swr';
import { findScreen } from '../../../engine/catalogue';
import { catalogue } from '../../../generated/screens';
import { api } from '../../../lib/api';
import { PageLoading } from '../../../components/PageLoading';

interface VisaLetter {
  index: number;
  name: string;
  passportNumber: string;
  reference: string;
  fileName: string;
}

/** How long a viewed letter's object URL lives: long enough for the new tab to load it. */
const VIEW_URL_LIFETIME_MS = 60_000;

const letterPath = (index: number) => `/visa/letters/${index}.pdf`;

/** F7: one visa invitation letter (PDF, made by the server) per applicant of the submitted S06 form. */
export default function VisaLettersPage() {
  const { t } = useTranslation();
  const { data, error } = useSWR<VisaLetter[]>('/visa/letters', (path: string) => api.get<VisaLetter[]>(path));
  const [pending, setPending] = useState<string | null>(null);
  const formPath = findScreen(catalogue, 'visaInvitation')?.path ?? '/myParticipation/visaInvitation';
  const formTitle = t('forms.s06.title');

  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!data) return <PageLoading />;

  if (data.length === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography sx={{ mb: 2 }}>{t('visa.none')}</Typography>
        <Button component={RouterLink} to={`${formPath}?orderName=${encodeURIComponent(formTitle)}`} variant="contained">
          {t('visa.openForm')}
        </Button>
      </Paper>
    );
  }

  /** The PDF needs the session's bearer token, so it is fetched here and shown from a blob. */
  async function view(letter: VisaLetter) {
    // Opened now, while the click still counts as the user's, so no pop-up blocker stops it.
    const tab = window.open('', '_blank');
    setPending(`view-${letter.index}`);
    try {
      const blob = await api.get<Blob>(letterPath(letter.index), { responseType: 'blob' });
      const url = URL.createObjectURL(blob);
      if (tab) tab.location.href = url;
      else window.open(url, '_blank');
      setTimeout(() => URL.revokeObjectURL(url), VIEW_URL_LIFETIME_MS);
    } catch {
      // The API client has already said what went wrong.
      tab?.close();
    } finally {
      setPending(null);
    }
  }

  async function download(letter: VisaLetter) {
    setPending(`download-${letter.index}`);
    try {
      await api.download(letterPath(letter.index), letter.fileName, { params: { download: 1 } });
    } catch {
      // The API client has already said what went wrong.
    } finally {
      setPending(null);
    }
  }

  return (
    <Box>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('visa.intro')}
      </Typography>
      <TableContainer component={Paper} variant="outlined">
        <Table aria-label={t('screens.visaInvitationDetail')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('visa.applicant')}</TableCell>
              <TableCell>{t('visa.passport')}</TableCell>
              <TableCell>{t('visa.reference')}</TableCell>
              <TableCell>{t('visa.letter')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {data.map((letter) => (
              <TableRow key={letter.index}>
                <TableCell>
                  <Typography sx={{ fontWeight: 600 }}>{letter.name}</Typography>
                </TableCell>
                <TableCell>{letter.passportNumber}</TableCell>
                <TableCell>{letter.reference}</TableCell>
                <TableCell>
                  <Stack direction="row" spacing={1}>
                    <Button size="small" variant="outlined" disabled={pending !== null} onClick={() => void view(letter)} aria-label={`${t('visa.viewLetter')}: ${letter.name}`}>
                      {t('visa.viewLetter')}
                    </Button>
                    <Button size="small" variant="contained" disabled={pending !== null} onClick={() => void download(letter)} aria-label={`${t('visa.download')}: ${letter.name}`}>
                      {t('visa.download')}
                    </Button>
                  </Stack>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Typography variant="body2" sx={{ mt: 2 }}>
        <Link component={RouterLink} to={`${formPath}?orderName=${encodeURIComponent(formTitle)}`}>
          {t('visa.openForm')}
        </Link>
      </Typography>
    </Box>
  );
}
