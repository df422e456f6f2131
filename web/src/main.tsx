import { createDOMRenderer, FluentProvider, makeStaticStyles, RendererProvider, webLightTheme } from '@fluentui/react-components';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createAppRouter } from './App';
import { ToastProvider } from './components/forms/toast';

const useGlobalStyles = makeStaticStyles({
  'html, body, #root': { margin: 0, padding: 0, minHeight: '100%' },
});

// The Content-Security-Policy allows <style> elements only with this response's nonce
// (the server writes it into index.html); Griffel and FluentProvider put it on theirs.
// Without a server (the Vite dev server) the placeholder stays and no nonce is needed.
const nonce = document.querySelector('meta[name="csp-nonce"]')?.getAttribute('content') ?? '';
const renderer = createDOMRenderer(document, nonce && !nonce.startsWith('__') ? { styleElementAttributes: { nonce } } : undefined);
function Root({ router }: { router: ReturnType<typeof createAppRouter> }) {
  useGlobalStyles();
  return (
    <FluentProvider theme={webLightTheme}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </FluentProvider>
  );
}

const container = document.getElementById('root');
if (container == null) throw new Error('Missing #root element');

const start = () => {
  const router = createAppRouter();
  // The first render as a transition: React renders it in slices,
  // yielding to the browser every few milliseconds instead of one long task, so a slow phone stays
  // responsive while the app starts. The server's frame (boot/bootFrame.ts) stays on screen until
  // the first render commits the same markup.
  const root = createRoot(container);
  startTransition(() => {
    root.render(
      <StrictMode>
        <RendererProvider renderer={renderer} targetDocument={document}>
          <Root router={router} />
        </RendererProvider>
      </StrictMode>,
    );
  });
};

// Evaluating the entry's modules (React, Relay, Fluent, the app's
// shell) is one long task on a phone; starting the app (the router, whose loaders prepare the
// screen's queries, then the first render) waits for the next task, so the two do not add up to
// one longer block of the main thread. The queries the page needs first are already on their way
// (boot/signedInPreload.ts). (Not a top-level await: that would make the bundler split the
// entry into many more files.)
setTimeout(start, 0);
