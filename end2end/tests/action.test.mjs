// "Put it into practice" (docs/formulas.md §§ 17–18) on the real page: the worked example
// through a link (the § 9 history, N = 1, the second region), the three snippets to the
// character, Copy copying exactly a snippet, a hostile link value shown as text only and kept
// one YAML scalar, Chinese at 375 px with axe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import AxeBuilder from '@axe-core/playwright';
import { launch, serve, openPage, screenshot, paste } from '../lib.mjs';

let browser, server;
before(async () => { browser = await launch(); server = await serve(); });
after(async () => { await browser?.close(); await server?.close(); });

const attr = (page, id) => page.getAttribute(`[data-testid=${id}]`, 'data-value');
const waitAttr = (page, id, expected) => page.waitForFunction(
  ([s, e]) => document.querySelector(`[data-testid=${s}]`)?.getAttribute('data-value') === e,
  [id, expected], { timeout: 8000 });
const snippet = (page, id) => page.evaluate((id) => document.querySelector(`[data-testid=${id}]`).textContent, id);

// § 3 / § 9 history u = [0, 1.5, 3, 2.25] (T = 4 h, H/T = 182.5), N = 1 (custom rule), f = 40 %,
// λ = 0.02, δ = 0.04 h, R = 0.5 h → τ = 2 h, s_eff = 8.40; no burst quota (E = ⌈3⌉ − 1 = 2);
// the second region of § 17: r' = 20, s' = 6, 5 GB per GPU-hour at 0.5.
const HISTORY = ['timestamp,gpus', '2026-01-01 00:00,0', '2026-01-01 01:00,1.5', '2026-01-01 02:00,3',
  '2026-01-01 03:00,2.25'].join('\n');
const EXAMPLE = '?v=2&lang=en&hours=730&lookback=all&rule=custom&custom=1&interruptible=40&lambda=0.02'
  + '&ckpt=0.04&restart=0.5&maxelastic=0&altod=20&altspot=6&gbph=5&xfer=0.5&regionnote=Tianjin%2C%202%20ms';

const VOLCANO = `apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata:
  name: gpu-plan
  annotations:
    gpu-rent-planner/elastic-region: "alt"
    gpu-rent-planner/region-note: "Tianjin, 2 ms"
spec:
  weight: 1
  reclaimable: true
  guarantee:
    resource:
      nvidia.com/gpu: "1"
  deserved:
    nvidia.com/gpu: "2"
  capability:
    nvidia.com/gpu: "3"
`;
const KEDA = `apiVersion: keda.sh/v1alpha1
kind: ScaledObject
metadata:
  name: gpu-elastic
  annotations:
    gpu-rent-planner/elastic-region: "alt"
    gpu-rent-planner/region-note: "Tianjin, 2 ms"
spec:
  scaleTargetRef:
    name: "gpu-elastic-workers"
  minReplicaCount: 0
  maxReplicaCount: 2
  cooldownPeriod: 1800
  triggers:
    - type: prometheus
      metadata:
        serverAddress: "http://prometheus.monitoring.svc:9090"
        query: "clamp_min(sum(gpu_queue_demand_gpus) - 1, 0)"
        threshold: "1"
        activationThreshold: "0"
`;
const SLURM = `# Fixed partition: 1 GPU committed. Elastic partition: up to 2 GPUs in the cloud.
sacctmgr -i add qos gpu-fixed GrpTRES=gres/gpu=1
sacctmgr -i add qos gpu-elastic GrpTRES=gres/gpu=2
# slurm.conf (one GPU per node; adjust the node names)
PartitionName=fixed Nodes=gpu-fixed-[1-1] QOS=gpu-fixed Default=YES State=UP
PartitionName=elastic Nodes=gpu-cloud-[1-2] QOS=gpu-elastic SuspendTime=1800 State=UP
# Auto-stop: stop an on-demand instance after 30 minutes with no GPU activity.
# Spot: checkpoint every 2 hours (the spot card's interval).
# Elastic region: alt "Tianjin, 2 ms"
`;

async function checkExample(page) {
  await waitAttr(page, 'region-saving', '1026.57');
  assert.equal(await attr(page, 'elastic-region'), 'alt');
  assert.equal(await attr(page, 'spot-region'), 'home');
  assert.equal(await attr(page, 'alt-effective-price'), '22.50');
  assert.equal(await attr(page, 'alt-spot-effective-price'), '8.80');
  assert.equal(await attr(page, 'region-breakeven-gb'), '10');
  assert.equal(await attr(page, 'action-committed'), '1');
  assert.equal(await attr(page, 'action-elastic-max'), '2');
  assert.equal(await snippet(page, 'snippet-volcano'), VOLCANO);
  assert.equal(await snippet(page, 'snippet-keda'), KEDA);
  assert.equal(await snippet(page, 'snippet-slurm'), SLURM);
}

test('the worked example: the second region, the snippets to the character, through its link', async () => {
  const { page, context, problems } = await openPage(browser, server.url + EXAMPLE);
  await page.click('[data-testid=mode-data]');
  await paste(page, HISTORY);
  await checkExample(page);
  assert.match(await page.textContent('[data-testid=auto-stop-rule]'),
    /^Stop an on-demand instance after 30 minutes with no GPU activity/);
  assert.equal(await page.textContent('[data-testid=region-note-shown]'), 'Tianjin, 2 ms');
  assert.equal(await page.inputValue('[data-testid=alt-on-demand-price]'), '20');
  // The link (with the history) opens the same card in a fresh page.
  await page.waitForFunction(() => location.search.includes('data='));
  const link = await page.evaluate(() => location.search);
  assert.match(link, /&altod=20&/);
  assert.match(link, /&regionnote=Tianjin%2C%202%20ms/);
  const again = await openPage(browser, server.url + link);
  await checkExample(again.page);
  await again.context.close();
  // Copy copies exactly the snippet's text.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
  await page.click('[data-testid=copy-snippet-keda]');
  await page.waitForFunction(() => document.querySelector('[data-testid=copy-snippet-keda] + span, [data-testid=copy-snippet-keda] ~ [role=status]')?.textContent === 'Copied');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), KEDA);
  // Typing a target name changes the snippet, one scalar.
  await page.fill('[data-testid=target-name]', 'trainers');
  await page.waitForFunction(() => document.querySelector('[data-testid=snippet-keda]').textContent.includes('name: "trainers"'));
  assert.deepEqual(problems, []);
  await context.close();
});

test('a hostile link value is shown as text and stays one YAML scalar', async () => {
  const hostile = 'x"\nkind: Secret\n<img src=x onerror="window.__pwned=1"> [a](http://e) ![i](http://e/i.png)';
  const enc = encodeURIComponent(hostile);
  const { page, context, problems } = await openPage(browser,
    server.url + `?v=2&lang=en&altod=20&gbph=5&xfer=0.5&regionnote=${enc}&target=${enc}&metric=${enc}&prom=${enc}`);
  const shown = 'x" kind: Secret <img src=x onerror="window.__pwned=1"> [a](http://e) ![i](http://e/i.png)';
  await page.waitForSelector('[data-testid=region-note-shown]');
  assert.equal(await page.textContent('[data-testid=region-note-shown]'), shown);
  assert.equal(await page.locator('[data-testid=action-card] img').count(), 0);
  assert.equal(await page.locator('[data-testid=action-card] a[href="http://e"]').count(), 0);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.inputValue('[data-testid=alt-region-note]'), shown);
  const keda = await snippet(page, 'snippet-keda');
  assert.ok(keda.includes('    name: "x\\" kind: Secret <img src=x onerror=\\"window.__pwned=1\\"> [a](http://e) ![i](http://e/i.png)"\n'), keda);
  assert.equal(keda.split('\n').filter((l) => /^\s*kind:/.test(l)).length, 1, keda);
  assert.equal(keda.split('\n').length, KEDA.split('\n').length, keda);
  const volcano = await snippet(page, 'snippet-volcano');
  assert.equal(volcano.split('\n').length, VOLCANO.split('\n').length, volcano);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Chinese at 375 px: the card fits, speaks Chinese, and passes axe', async () => {
  const { page, context, problems } = await openPage(browser, server.url + EXAMPLE.replace('lang=en', 'lang=zh'),
    { viewport: { width: 375, height: 800 }, locale: 'zh-CN' });
  await page.click('[data-testid=mode-data]');
  await paste(page, HISTORY);
  await waitAttr(page, 'region-saving', '1026.57');
  assert.equal(await page.textContent('#action-heading'), '付诸实践');
  assert.equal(await page.textContent('[data-testid=elastic-region]'), '第二区域');
  assert.match(await page.textContent('[data-testid=region-saving]'), /^¥1,026\.57$/);
  assert.match(await page.textContent('[data-testid=auto-stop-rule]'), /^按需实例连续 30 ?分钟 ?没有 GPU 活动就关机/);
  assert.equal(await snippet(page, 'snippet-volcano'), VOLCANO);
  await page.locator('[data-testid=action-card]').scrollIntoViewIfNeeded();
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 375);
  const axe = await new AxeBuilder({ page }).include('[data-testid=action-card]').analyze();
  assert.deepEqual(axe.violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.help}`), []);
  await screenshot(page, 'action-zh-375');
  assert.deepEqual(problems, []);
  await context.close();
});
