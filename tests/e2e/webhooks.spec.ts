import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { expectVisible, field, loginAndLand, useBrowser } from './support/browser';
import { en } from './support/locales';
import { DEMO_PASSWORD, usePortal } from './support/portal';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

// LD: an exhibitor connects its own system on Digital Tools → Integrations: it adds an endpoint
// (a real receiver on this machine; the portal runs as a development server), keeps the secret
// shown once, sends a test event, and sees it delivered in the endpoint's delivery log. The
// receiver checks the signature with the Standard Webhooks verifier.

const portal = usePortal();
const session = useBrowser();
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => receiver?.stop());

describe('exhibitor: webhooks on Digital Tools → Integrations', () => {
  test('adds an endpoint, sends a test event and sees it delivered in the log', async () => {
    const { page } = session;
    await loginAndLand(page, portal.url, 'demo', DEMO_PASSWORD);
    await page.goto(`${portal.url}/digital-tools/integrations`);
    await expectVisible(page.getByRole('heading', { level: 1, name: en('screens.integrations') }), 'the Integrations page');

    // Nothing typed: the page says what is missing and nothing is stored.
    await page.getByRole('button', { name: en('webhooks.add') }).click();
    await expectVisible(page.getByText(en('webhooks.urlRequired')), 'the missing address explained');

    await field(page, en('webhooks.url')).fill(receiver.url);
    await field(page, en('webhooks.description')).fill('Our CRM');
    await page.getByRole('button', { name: en('webhooks.add') }).click();
    await expectVisible(page.getByText(en('webhooks.secretOnce', { url: receiver.url })), 'the secret shown once');
    const secret = await field(page, en('webhooks.secret')).inputValue();
    expect(secret).toMatch(/^whsec_/);

    const endpoint = page.getByRole('region', { name: receiver.url });
    await expectVisible(endpoint, 'the endpoint listed');
    await endpoint.getByRole('button', { name: en('webhooks.sendTest') }).click();
    await expectVisible(page.getByRole('status').filter({ hasText: en('webhooks.testQueued') }), 'the test queued');

    const logTable = page.getByRole('table', { name: en('webhooks.logOf', { url: receiver.url }) });
    await expectVisible(logTable.getByRole('cell', { name: en('webhooks.event.webhook_test') }), 'the test event in the log');
    await expectVisible(logTable.getByRole('cell', { name: en('webhooks.deliveryStatus.delivered') }), 'the test event delivered', 20_000);
    await expectVisible(logTable.getByRole('cell', { name: '200', exact: true }), "the receiver's answer code");

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    const verified = new Webhook(secret).verify(request!.body, {
      'webhook-id': String(request!.headers['webhook-id']),
      'webhook-timestamp': String(request!.headers['webhook-timestamp']),
      'webhook-signature': String(request!.headers['webhook-signature']),
    });
    expect(verified).toMatchObject({ type: 'webhook.test' });

    await logTable.getByRole('button', { name: en('webhooks.showPayload') }).click();
    await expectVisible(page.getByLabel(en('webhooks.column.payload')).filter({ hasText: 'webhook.test' }), 'the payload shown');
  });
});
