/** `npm run bench`: every benchmark of the project, each printing its own figures. */
import { runValidationBench } from './validation';

async function main(): Promise<void> {
  const v = runValidationBench();
  console.log(`schema validation: ${v.count} typical inputs in ${v.seconds.toFixed(3)} s (${v.perSecond}/s)`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
