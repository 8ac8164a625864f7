import { useState } from 'react';
import { Alert, Box, Button, Card, CardActions, CardContent, Chip, IconButton, Stack, TextField, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutline from '@mui/icons-material/DeleteOutlined';
import { useTranslation } from 'react-i18next';
import { CUSTOM_TAG_CHOICES_MAX, CUSTOM_TAGS_MAX, SUPPORT_EMAIL } from '../../../engine/constants';
import { canAddTag, checkCustomTag, normalizeTag, type TagProblem } from '../../../engine/custom-tags';
import type { CustomTagInput } from '../../../engine/schemas/custom-tag';
import { typedApi } from '../../../lib/api';
import { useApi } from '../../../lib/use-api';
import type { ApiData, ApiPath } from '../../../lib/typed-api';
import { useAccountInfo } from '../../../lib/session';
import { showToast } from '../../../lib/toast';
import { LimitTips } from '../../../components/LimitTips';
import { PageLoading } from '../../../components/PageLoading';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { FormCard, useSending } from '../components/FormCard';

// LD6/V5: the exhibitor's custom tags. The engine's rules run before sending, with their
// messages beside the fields; the server runs the same rules and answers the same messages.

type Tag = ApiData<'GET', '/custom-tags'>[number];

/** A tag being written: a stored one (its id) or a new one (null). */
type Draft = CustomTagInput & { id: number | null };

const TAGS_KEY = '/custom-tags' satisfies ApiPath<'GET'>;

/** Stored choice → its new text, for the rows edited in place (the leads' answers follow). */
function renamedChoices(origins: Array<string | null>, choices: string[]): Record<string, string> {
  const renames: Record<string, string> = {};
  origins.forEach((origin, index) => {
    const now = (choices[index] ?? '').trim();
    if (origin !== null && now !== '' && now !== origin) renames[origin] = now;
  });
  return renames;
}

function TagEditor({ draft, otherNames, onDone }: { draft: Draft; otherNames: string[]; onDone: (saved: boolean) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(draft.name);
  const [choices, setChoices] = useState<string[]>(draft.choices.length > 0 ? draft.choices : ['']);
  // The stored choice each row started as (null: added here), so an edited row is a rename.
  const [origins, setOrigins] = useState<Array<string | null>>(draft.choices.length > 0 ? draft.choices : [null]);
  const { problems, failure, busy, send } = useSending<TagProblem>();
  const message = (problem: TagProblem | undefined) => (problem ? t(problem.key, problem.params) : '');
  const nameProblem = problems.find((p) => p.field === 'name');
  const listProblem = problems.find((p) => p.field === 'choices' || p.field === 'tags');
  const choiceProblem = (index: number) => problems.find((p) => p.field === 'choice' && p.index === index);
  const title = draft.id === null ? t('customTags.newTag') : t('customTags.editTag');

  const save = () => {
    const tag = normalizeTag({ name, choices });
    return send(checkCustomTag(tag, otherNames), async () => {
      if (draft.id === null) await typedApi.post('/custom-tags', { body: tag, silent: true });
      else await typedApi.put('/custom-tags/{id}', { path: { id: draft.id }, body: { ...tag, renamedChoices: renamedChoices(origins, choices) }, silent: true });
      showToast('success', t('success.saved'));
      onDone(true);
    });
  };

  return (
    <FormCard
      title={title}
      onSubmit={() => void save()}
      actions={
        <CardActions>
          <Button type="submit" variant="contained" disabled={busy}>
            {t('customTags.save')}
          </Button>
          <Button onClick={() => onDone(false)}>{t('customTags.cancel')}</Button>
        </CardActions>
      }
    >
      <Stack spacing={2}>
        <TextField
          label={t('customTags.name')}
          value={name}
          required
          onChange={(event) => setName(event.target.value)}
          error={Boolean(nameProblem)}
          helperText={message(nameProblem) || ' '}
        />
        <Typography variant="subtitle2" component="h3">
          {t('customTags.choices')}
        </Typography>
        {choices.map((choice, index) => {
          const problem = choiceProblem(index);
          return (
            <Box key={index} sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
              <TextField
                size="small"
                fullWidth
                label={t('customTags.choice', { n: index + 1 })}
                value={choice}
                onChange={(event) => setChoices(choices.map((c, i) => (i === index ? event.target.value : c)))}
                error={Boolean(problem)}
                helperText={message(problem) || ' '}
              />
              <IconButton
                aria-label={t('customTags.removeChoice', { n: index + 1 })}
                onClick={() => {
                  setChoices(choices.filter((_, i) => i !== index));
                  setOrigins(origins.filter((_, i) => i !== index));
                }}
              >
                <DeleteOutline />
              </IconButton>
            </Box>
          );
        })}
        {listProblem && <Alert severity="error">{message(listProblem)}</Alert>}
        {draft.id !== null && (
          <Typography variant="body2" color="text.secondary">
            {t('customTags.renameHint')}
          </Typography>
        )}
        {choices.length < CUSTOM_TAG_CHOICES_MAX && (
          <Box>
            <Button
              startIcon={<AddIcon />}
              onClick={() => {
                setChoices([...choices, '']);
                setOrigins([...origins, null]);
              }}
            >
              {t('customTags.addChoice')}
            </Button>
          </Box>
        )}
        {failure && <Alert severity="error">{failure}</Alert>}
      </Stack>
    </FormCard>
  );
}

export default function CustomTagsPage() {
  const { t } = useTranslation();
  const { data: account } = useAccountInfo();
  const { data: tags, error, mutate } = useApi('GET', TAGS_KEY);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [deleting, setDeleting] = useState<Tag | null>(null);

  const done = (saved: boolean) => {
    setDraft(null);
    if (saved) void mutate();
  };
  const remove = async (tag: Tag) => {
    setDeleting(null);
    try {
      await typedApi.del('/custom-tags/{id}', { path: { id: tag.id } });
      showToast('success', t('success.deleted'));
    } finally {
      void mutate();
    }
  };

  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (!tags) return <PageLoading />;
  const canAdd = canAddTag(tags.length);
  return (
    <Stack spacing={2}>
      <Typography>{t('customTags.intro', { tags: CUSTOM_TAGS_MAX, choices: CUSTOM_TAG_CHOICES_MAX })}</Typography>
      <Typography variant="body2" color="text.secondary">
        {t('customTags.count', { count: tags.length, limit: CUSTOM_TAGS_MAX })}
      </Typography>
      {tags.length === 0 && <Typography color="text.secondary">{t('customTags.none')}</Typography>}
      <Stack spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {tags.map((tag) =>
          draft?.id === tag.id ? (
            <li key={tag.id}>
              <TagEditor draft={draft} otherNames={tags.filter((other) => other.id !== tag.id).map((other) => other.name)} onDone={done} />
            </li>
          ) : (
            <Card key={tag.id} variant="outlined" component="li" aria-label={tag.name}>
              <CardContent>
                <Typography variant="h6" component="h2">
                  {tag.name}
                </Typography>
                <Box component="ul" aria-label={t('customTags.choices')} sx={{ listStyle: 'none', p: 0, m: 0, mt: 1, display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                  {tag.choices.map((choice) => (
                    <li key={choice}>
                      <Chip label={choice} />
                    </li>
                  ))}
                </Box>
              </CardContent>
              <CardActions>
                <Button onClick={() => setDraft({ id: tag.id, name: tag.name, choices: tag.choices })} disabled={draft !== null}>
                  {t('customTags.edit')}
                </Button>
                <Button color="error" onClick={() => setDeleting(tag)} disabled={draft !== null}>
                  {t('customTags.delete')}
                </Button>
              </CardActions>
            </Card>
          ),
        )}
      </Stack>
      {draft?.id === null && <TagEditor draft={draft} otherNames={tags.map((tag) => tag.name)} onDone={done} />}
      {canAdd && draft === null && (
        <Box>
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDraft({ id: null, name: '', choices: [''] })}>
            {t('customTags.add')}
          </Button>
        </Box>
      )}
      {!canAdd && <LimitTips count={1} email={account?.supportEmail || SUPPORT_EMAIL} />}
      <ConfirmDialog
        open={deleting !== null}
        text={t('customTags.confirmDelete', { name: deleting?.name ?? '' })}
        cancelLabel={t('customTags.cancel')}
        confirmLabel={t('customTags.delete')}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && void remove(deleting)}
      />
    </Stack>
  );
}
