import { FluentProvider, makeStaticStyles, webLightTheme } from '@fluentui/react-components';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { createAppRouter } from './App';
import { ToastProvider } from './components/toast';

const useGlobalStyles = makeStaticStyles({
  'html, body, #root': { margin: 0, padding: 0, minHeight: '100%' },
});

const router = createAppRouter();

function Root() {
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

createRoot(container).render(
  <StrictMode>
    <Root />
  </StrictMode>,
);
