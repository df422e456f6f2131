import { FluentProvider, makeStaticStyles, webLightTheme } from '@fluentui/react-components';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App';
import { SessionProvider } from './auth/SessionProvider';
import { ToastProvider } from './components/toast';

const useGlobalStyles = makeStaticStyles({
  'html, body, #root': { margin: 0, padding: 0, minHeight: '100%' },
});

function Root() {
  useGlobalStyles();
  return (
    <FluentProvider theme={webLightTheme}>
      <ToastProvider>
        <BrowserRouter>
          <SessionProvider>
            <App />
          </SessionProvider>
        </BrowserRouter>
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
