package dev.bookstore.ordering.adapters.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Every answer of the API is a small JSON document: it is held until the request is done and then written once,
 * with its {@code Content-Length}. Without this, Spring MVC flushes the response after writing a JSON body, so
 * Tomcat sent the headers and the body as a chunk in one write and the closing chunk in a second one: two system
 * calls and two TCP segments per answer, where one does (and system calls are dear on a virtual machine). The
 * wrapper is Spring's own ({@link ContentCachingResponseWrapper}, as in {@code ShallowEtagHeaderFilter}); its
 * {@code flushBuffer} writes nothing until the body is copied out at the end.
 */
final class SingleWriteResponseFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ContentCachingResponseWrapper held = new ContentCachingResponseWrapper(response);
        try {
            chain.doFilter(request, held);
        } finally {
            held.copyBodyToResponse();
        }
    }
}
