/**
 * `npm run bench`: every benchmark of the project, each printing its own figures.
 * `npm run bench -- NAME...` runs only those (validation, iam, import-csv, import-xlsx, hostile, data-files, assets, inline-payload, asset-batches, reports, reliability).
 */
import { runValidationBench } from './validation';

const BENCHES: Record<string, () => Promise<void>> = {
  async validation() {
    const v = runValidationBench();
    console.log(`schema validation: ${v.count} typical inputs in ${v.seconds.toFixed(3)} s (${v.perSecond}/s)`);
  },
  async iam() {
    await (await import('./iam')).runIamBench();
  },
  async 'import-csv'() {
    const m = await import('./import-csv');
    m.printImportCsvBench(await m.runImportCsvBench());
  },
  async 'import-xlsx'() {
    const m = await import('./import-xlsx');
    m.printImportXlsxBench(await m.runImportXlsxBench());
  },
  async hostile() {
    const m = await import('./hostile');
    m.printHostileBench(await m.runHostileBench());
  },
  async 'data-files'() {
    const m = await import('./data-files');
    m.printDataFilesBench(await m.runDataFilesBench());
  },
  async assets() {
    await (await import('./assets')).runAssetsBench();
  },
  async 'inline-payload'() {
    await (await import('./inline-payload')).runInlinePayloadBench();
  },
  async 'asset-batches'() {
    await (await import('./asset-batches')).runAssetBatchesBench();
  },
  async reports() {
    await (await import('./reports')).runReportsBench();
  },
  async reliability() {
    await (await import('./reliability')).runReliabilityBench();
  },
};

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !(name in BENCHES));
  if (unknown.length > 0) throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);
  for (const name of wanted.length > 0 ? wanted : Object.keys(BENCHES)) {
    console.log(`\n== ${name}`);
    await BENCHES[name]();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
