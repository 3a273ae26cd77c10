// Preloaded with `node --import` into a tms process: appends the URL of every module it loads to the file named by
// $TMS_RECORD_MODULES — ES modules through a load hook (which sees them whoever imports them), CommonJS ones from the
// require cache when the process exits.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const file = process.env.TMS_RECORD_MODULES;
if (file) {
  const hooks = `
    import { appendFileSync } from 'node:fs';
    export async function load(url, context, next) {
      appendFileSync(${JSON.stringify(file)}, url + '\\n');
      return next(url, context);
    }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
  const require = createRequire(import.meta.url);
  process.on('exit', () => {
    const loaded = Object.keys(require.cache).map((f) => pathToFileURL(f).href);
    appendFileSync(file, `${loaded.join('\n')}\n`);
  });
}
