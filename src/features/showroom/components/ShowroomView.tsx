import { Box, Card, CardContent, Chip, Link, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ApiData } from '../../../lib/typed-api';

/** The showroom as the API answers it (the preview and the public page have the same shape). */
export type ShowroomData = ApiData<'GET', '/showroom'>['showroom'];
export type ShowroomFile = NonNullable<ShowroomData['company']['logo']>;

const safeUrl = (url: string) => (/^https?:\/\//i.test(url) ? url : '');

/** CT5: the showroom as visitors see it (the exhibitor's preview and the public page). */
export function ShowroomView({ showroom, imageUrl }: { showroom: ShowroomData; imageUrl: (file: ShowroomFile) => string | null }) {
  const { t } = useTranslation();
  const logo = showroom.company.logo ? imageUrl(showroom.company.logo) : null;
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' } }}>
        {logo && (
          <Box
            component="img"
            src={logo}
            alt={t('showroom.logoOf', { name: showroom.company.name })}
            sx={{ width: 120, height: 120, objectFit: 'contain', bgcolor: 'background.paper', borderRadius: 1 }}
          />
        )}
        <Box>
          <Typography variant="h4" component="h2">
            {showroom.company.name}
          </Typography>
          {safeUrl(showroom.company.website) && (
            <Link href={safeUrl(showroom.company.website)} target="_blank" rel="noopener noreferrer">
              {showroom.company.website}
            </Link>
          )}
        </Box>
      </Stack>
      {showroom.company.description && <Typography sx={{ whiteSpace: 'pre-line' }}>{showroom.company.description}</Typography>}
      {showroom.products.length > 0 && (
        <section aria-label={t('showroom.products')}>
          <Typography variant="h5" component="h2" sx={{ mb: 1 }}>
            {t('showroom.products')}
          </Typography>
          <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' } }}>
            {showroom.products.map((product, index) => {
              const image = product.image ? imageUrl(product.image) : null;
              return (
                <Card key={`${product.name}-${index}`} variant="outlined">
                  {image && <Box component="img" src={image} alt={product.name} sx={{ width: '100%', aspectRatio: '4 / 3', objectFit: 'cover' }} />}
                  <CardContent>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                      <Typography component="h3" sx={{ fontWeight: 600 }}>
                        {product.name}
                      </Typography>
                      {product.newLaunch && <Chip size="small" color="primary" label={t('showroom.newLaunch')} />}
                    </Stack>
                    {product.brand && (
                      <Typography variant="body2" color="text.secondary">
                        {product.brand}
                      </Typography>
                    )}
                    {product.description && (
                      <Typography variant="body2" sx={{ mt: 1 }}>
                        {product.description}
                      </Typography>
                    )}
                    {safeUrl(product.video) && (
                      <Link href={safeUrl(product.video)} target="_blank" rel="noopener noreferrer" variant="body2">
                        {t('showroom.video')}
                      </Link>
                    )}
                  </CardContent>
                </Card>
              );
            })}
          </Box>
        </section>
      )}
    </Stack>
  );
}
